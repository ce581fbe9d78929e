package io.chronex.gateway.fix;

import org.agrona.DirectBuffer;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Map;

/**
 * The FIX 4.4 data dictionary in compact arrays: every field's type and enumeration, and the
 * structure of the header, the trailer and each message type's body (components expanded, repeating
 * groups with their delimiter, member order and required members). Read once at start from
 * QuickFIX/J's FIX44.xml, which the gateway build extracts from quickfixj-core onto the class path
 * (gateway/pom.xml); lookups afterwards allocate nothing. {@link FixValidator} checks messages with it.
 */
public final class FixDictionary {
    /** Tags from here up are user-defined: allowed anywhere, never checked. */
    public static final int FIRST_USER_DEFINED_TAG = 5000;
    private static final String FIX44_RESOURCE = "FIX44.xml";
    /** Enumerated values up to this many bytes are packed, with their length, into one long. */
    private static final int PACKED_MAX_LENGTH = 7;

    private final byte[] types;
    private final String[] names;
    /** By tag: the sorted packed values of up to 7 bytes; null for a tag without an enumeration. */
    private final long[][] packedValues;
    /** By tag: the enumerated values longer than 7 bytes; null when there are none. */
    private final byte[][][] longValues;
    private final FixScope header;
    private final FixScope trailer;
    /** Sorted MsgTypes, packed as in {@link FixMsgTypes}, and the body of each. */
    private final int[] msgTypes;
    private final FixScope[] bodies;
    private final int maxGroupDepth;
    private final int maxBodySize;

    /** The FIX 4.4 dictionary, read from the class path the first time it is asked for. */
    public static FixDictionary fix44() {
        return Fix44.DICTIONARY;
    }

    /** Holds the shared dictionary: the JVM loads this class, and so reads FIX44.xml, once and on first use. */
    private static final class Fix44 {
        static final FixDictionary DICTIONARY = read(FIX44_RESOURCE);
    }

    private static FixDictionary read(final String resource) {
        try (InputStream in = FixDictionary.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is not on the class path next to " + FixDictionary.class.getName()
                    + ": the gateway build unpacks it from quickfixj-core (gateway/pom.xml)");
            }
            return FixDictionaryLoader.load(in);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }

    /**
     * @param values by tag, the enumerated values (null for a tag without an enumeration)
     * @param bodies by packed MsgType
     */
    FixDictionary(final byte[] types, final String[] names, final byte[][][] values, final FixScope header, final FixScope trailer,
        final Map<Integer, FixScope> bodies) {
        this.types = types;
        this.names = names;
        this.header = header;
        this.trailer = trailer;
        packedValues = new long[types.length][];
        longValues = new byte[types.length][][];
        for (int tag = 0; tag < types.length; tag++) {
            if (values[tag] != null) {
                packedValues[tag] = Arrays.stream(values[tag]).filter(v -> v.length <= PACKED_MAX_LENGTH)
                    .mapToLong(FixDictionary::pack).sorted().toArray();
                final byte[][] longer = Arrays.stream(values[tag]).filter(v -> v.length > PACKED_MAX_LENGTH).toArray(byte[][]::new);
                longValues[tag] = longer.length == 0 ? null : longer;
            }
        }
        msgTypes = bodies.keySet().stream().mapToInt(Integer::intValue).sorted().toArray();
        this.bodies = new FixScope[msgTypes.length];
        int depth = Math.max(groupDepth(header), groupDepth(trailer));
        int size = 0;
        for (int i = 0; i < msgTypes.length; i++) {
            this.bodies[i] = bodies.get(msgTypes[i]);
            depth = Math.max(depth, groupDepth(this.bodies[i]));
            size = Math.max(size, this.bodies[i].tags.length);
        }
        maxGroupDepth = depth;
        maxBodySize = size;
    }

    /** How many groups deep the scope's structure goes: 0 without groups. */
    private static int groupDepth(final FixScope scope) {
        int depth = 0;
        for (final FixScope group : scope.groups) {
            if (group != null) {
                depth = Math.max(depth, 1 + groupDepth(group));
            }
        }
        return depth;
    }

    /** Whether FIX 4.4 defines this MsgType (packed as in {@link FixMsgTypes}). */
    public boolean knows(final int msgType) {
        return Arrays.binarySearch(msgTypes, msgType) >= 0;
    }

    /** Whether FIX 4.4 defines this tag; user-defined tags (5000 and up) are not defined. */
    public boolean isDefined(final int tag) {
        return tag > 0 && tag < types.length && types[tag] != FixFieldTypes.NOT_DEFINED;
    }

    /** The field's FIX name, or null for a tag that is not defined. */
    public String name(final int tag) {
        return isDefined(tag) ? names[tag] : null;
    }

    /** One more than the highest defined tag. */
    int tagLimit() {
        return types.length;
    }

    /** The field's {@link FixFieldTypes} type; {@link FixFieldTypes#NOT_DEFINED} for a tag that is not defined. */
    byte type(final int tag) {
        return tag > 0 && tag < types.length ? types[tag] : FixFieldTypes.NOT_DEFINED;
    }

    boolean hasEnumeration(final int tag) {
        return tag > 0 && tag < types.length && packedValues[tag] != null;
    }

    /** Whether the value at [offset, offset + length) is one of the tag's enumerated values (false without an enumeration). */
    boolean inEnumeration(final int tag, final DirectBuffer buf, final int offset, final int length) {
        if (!hasEnumeration(tag)) {
            return false;
        }
        if (length <= PACKED_MAX_LENGTH) {
            return Arrays.binarySearch(packedValues[tag], pack(buf, offset, length)) >= 0;
        }
        final byte[][] longer = longValues[tag];
        if (longer != null) {
            for (final byte[] value : longer) {
                if (equal(value, buf, offset, length)) {
                    return true;
                }
            }
        }
        return false;
    }

    FixScope header() {
        return header;
    }

    FixScope trailer() {
        return trailer;
    }

    /** The body of the MsgType, or null for one FIX 4.4 does not define. */
    FixScope body(final int msgType) {
        final int i = Arrays.binarySearch(msgTypes, msgType);
        return i < 0 ? null : bodies[i];
    }

    /** The deepest nesting of repeating groups anywhere: a validator's group stack needs no more. */
    int maxGroupDepth() {
        return maxGroupDepth;
    }

    /** The most members any body has at its top level. */
    int maxBodySize() {
        return maxBodySize;
    }

    /** Up to 7 bytes in the low bytes and the length in the top byte: equal longs are equal values. */
    private static long pack(final byte[] value) {
        long packed = (long) value.length << 56;
        for (int i = 0; i < value.length; i++) {
            packed |= (value[i] & 0xFFL) << (i * 8);
        }
        return packed;
    }

    private static long pack(final DirectBuffer buf, final int offset, final int length) {
        long packed = (long) length << 56;
        for (int i = 0; i < length; i++) {
            packed |= (buf.getByte(offset + i) & 0xFFL) << (i * 8);
        }
        return packed;
    }

    private static boolean equal(final byte[] value, final DirectBuffer buf, final int offset, final int length) {
        if (value.length != length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (buf.getByte(offset + i) != value[i]) {
                return false;
            }
        }
        return true;
    }
}
