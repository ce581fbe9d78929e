package io.chronex.gateway.fix;

import org.agrona.DirectBuffer;

import java.util.Arrays;

/**
 * Checks a message {@link FixDecoder#decode} accepted against the FIX 4.4 data dictionary and names the
 * first problem with its SessionRejectReason (373), as FIX 4.4 session test case 14 expects. The fields
 * are walked once in the order received; a field is first placed (header, body, trailer, or a member of
 * an open repeating group), then its value is checked:
 * <ul>
 *   <li>0, invalid tag number: a tag FIX 4.4 does not define (tags of 5000 and up are user-defined: skipped);</li>
 *   <li>2, tag not defined for this message type: defined, but not in the header, the trailer, the body or an open group;</li>
 *   <li>14, tag specified out of required order: a header field after a body field, a body field after a trailer field;</li>
 *   <li>13, tag appears more than once: at the top level or within one group instance (only a decoder built with
 *       repeated tags allowed lets these through);</li>
 *   <li>16, incorrect NumInGroup count: more or fewer instances than the NoXXX field says (refTag the NoXXX tag);</li>
 *   <li>15, repeating group fields out of order: an instance that does not start with the group's delimiter, or
 *       members of an instance not in the dictionary's order;</li>
 *   <li>6, incorrect data format: a value that is not of the field's type; a NumInGroup that is not a whole number;</li>
 *   <li>5, value is incorrect (out of range): a value outside the field's enumeration (each token of a
 *       MULTIPLEVALUESTRING);</li>
 *   <li>1, required tag missing, reported after the walk when nothing else was: first a required member missing from a
 *       group instance (in field order), then the header's, the body's and the trailer's required fields.</li>
 * </ul>
 * A group ends at the first field that is not one of its members. DATA values are not checked.
 *
 * <p>With {@code validateUnusedFields} false the structure is still checked (14, 13, 16, 15, 1, and 6 for a malformed
 * NumInGroup) but tags FIX 4.4 does not define or does not allow in the message type are passed over (no 0, no 2; they
 * do not end an open group either), and values (5, 6) are checked only for the tags given as read by the gateway: the
 * lenient behaviour for fields the exchange does not use. With it true every field's value is checked.
 *
 * <p>One per thread: it keeps its scratch state between calls. {@link #validate} allocates nothing, on failure too.
 */
public final class FixValidator {
    /** SessionRejectReason (373) values the validator returns besides FixDecoder's. */
    public static final int TAG_NOT_DEFINED_FOR_MSG_TYPE = 2;
    public static final int VALUE_OUT_OF_RANGE = 5;
    public static final int GROUP_FIELDS_OUT_OF_ORDER = 15;
    public static final int INCORRECT_NUM_IN_GROUP_COUNT = 16;

    // The three top-level sections, in the order a message must have them.
    private static final int HEADER = 0;
    private static final int BODY = 1;
    private static final int TRAILER = 2;
    /** What placing a field returns when the lenient mode passes over it. */
    private static final int SKIP = -2;
    /** NumInGroup values are read up to this: a message the decoder takes has 256 fields at most, so it is never matched. */
    private static final int COUNT_CAP = 1 << 20;
    private static final int MAX_VALUE_IN_TEXT = 40;

    private final FixDictionary dictionary;
    private final boolean validateUnusedFields;
    private final boolean[] valueChecked;

    /** The open repeating groups, outermost first: the group, its NumInGroup value, instances so far, last member seen. */
    private final FixScope[] groupScope;
    private final int[] groupDeclared;
    private final int[] groupInstances;
    private final int[] groupLast;
    private int depth;

    /** Header, body and trailer; by section, the generation in which each member was seen. */
    private final FixScope[] sections = new FixScope[3];
    private final int[][] seen = new int[3][];
    private int generation;
    private int section;

    private DirectBuffer buffer;
    private int msgType;
    /** Where the last field was placed. */
    private FixScope placedScope;
    private int placedMember;
    /** The first required member missing from a group instance, 0 if none; reported after the walk. */
    private int missingTag;
    private FixScope missingGroup;

    private int refTag;
    private final StringBuilder text = new StringBuilder(256);

    /**
     * @param validateUnusedFields true checks every field; false checks the structure, and values only of readTags
     * @param readTags the tags the gateway reads, whose values are checked either way (each must be a FIX 4.4 field)
     */
    public FixValidator(final FixDictionary dictionary, final boolean validateUnusedFields, final int[] readTags) {
        this.dictionary = dictionary;
        this.validateUnusedFields = validateUnusedFields;
        valueChecked = new boolean[dictionary.tagLimit()];
        for (int tag = 0; tag < valueChecked.length; tag++) {
            valueChecked[tag] = validateUnusedFields && dictionary.isDefined(tag);
        }
        for (final int tag : readTags) {
            if (!dictionary.isDefined(tag)) {
                throw new IllegalArgumentException("tag " + tag + " is not a FIX 4.4 field: its value cannot be checked");
            }
            valueChecked[tag] = true;
        }
        final int groups = dictionary.maxGroupDepth();
        groupScope = new FixScope[groups];
        groupDeclared = new int[groups];
        groupInstances = new int[groups];
        groupLast = new int[groups];
        sections[HEADER] = dictionary.header();
        sections[TRAILER] = dictionary.trailer();
        seen[HEADER] = new int[dictionary.header().tags.length];
        seen[BODY] = new int[dictionary.maxBodySize()];
        seen[TRAILER] = new int[dictionary.trailer().tags.length];
    }

    /**
     * Checks a message the decoder returned {@link FixDecoder#OK} for. Callers validate the message types they
     * accept ({@link FixDictionary#knows}); one FIX 4.4 does not define gets 11 (invalid MsgType).
     *
     * @return {@link FixDecoder#OK}, or the SessionRejectReason of the first problem; then {@link #refTag()} and
     * {@link #text()} describe it
     */
    public int validate(final FixDecoder message) {
        begin(message);
        if (sections[BODY] == null) {
            reject(FixTags.MSG_TYPE).append("MsgType ");
            appendMsgType();
            text.append(" is not defined in FIX 4.4");
            return FixDecoder.INVALID_MSG_TYPE;
        }
        final int fields = message.fieldCount();
        for (int i = 0; i < fields; i++) {
            final int tag = message.tagAt(i);
            if (tag < FixDictionary.FIRST_USER_DEFINED_TAG) {
                final int result = field(tag, message.valueOffsetAt(i), message.valueLengthAt(i));
                if (result != FixDecoder.OK) {
                    return result;
                }
            }
        }
        return end();
    }

    /** The tag the last failure refers to (RefTagID, 371). */
    public int refTag() {
        return refTag;
    }

    /** What the last failure was, for the Reject's Text (58); reused by the next call. */
    public CharSequence text() {
        return text;
    }

    private void begin(final FixDecoder message) {
        buffer = message.buffer();
        msgType = message.msgType();
        sections[BODY] = dictionary.body(msgType);
        depth = 0;
        section = HEADER;
        missingTag = 0;
        missingGroup = null;
        refTag = 0;
        text.setLength(0);
        if (++generation == 0) {
            for (final int[] s : seen) {
                Arrays.fill(s, 0);
            }
            generation = 1;
        }
    }

    /** Places one field, checks its value and opens the group a NumInGroup starts. */
    private int field(final int tag, final int offset, final int length) {
        if (!dictionary.isDefined(tag)) {
            if (!validateUnusedFields) {
                return FixDecoder.OK;
            }
            reject(tag).append("tag ").append(tag).append(" is not defined in FIX 4.4");
            return FixDecoder.INVALID_TAG_NUMBER;
        }
        final int placed = place(tag);
        if (placed != FixDecoder.OK) {
            return placed == SKIP ? FixDecoder.OK : placed;
        }
        if (valueChecked[tag]) {
            final int value = checkValue(tag, offset, length);
            if (value != FixDecoder.OK) {
                return value;
            }
        }
        final FixScope group = placedScope.groups[placedMember];
        return group == null ? FixDecoder.OK : openGroup(group, offset, length);
    }

    /** The innermost open group the tag belongs to, else the top level; groups it falls outside of end. */
    private int place(final int tag) {
        for (int level = depth - 1; level >= 0; level--) {
            final int member = groupScope[level].indexOf(tag);
            if (member >= 0) {
                final int closed = closeGroupsAbove(level);
                return closed != FixDecoder.OK ? closed : groupMember(level, member, tag);
            }
        }
        return topLevel(tag);
    }

    private int groupMember(final int level, final int member, final int tag) {
        final FixScope group = groupScope[level];
        final int last = groupLast[level];
        if (member == 0) {
            if (groupInstances[level] > 0) {
                noteMissing(group, last + 1, group.tags.length);
            }
            if (++groupInstances[level] > groupDeclared[level]) {
                reject(group.countTag);
                appendField(group.countTag).append(" is ").append(groupDeclared[level]).append(" but more instances follow");
                return INCORRECT_NUM_IN_GROUP_COUNT;
            }
        } else if (groupInstances[level] == 0) {
            reject(tag);
            appendGroupInstance(group).append(" does not start with ");
            appendField(group.tags[0]);
            return GROUP_FIELDS_OUT_OF_ORDER;
        } else if (member == last) {
            reject(tag);
            appendField(tag).append(" appears twice in one instance of ");
            appendField(group.countTag);
            return FixDecoder.TAG_REPEATED;
        } else if (member < last) {
            reject(tag);
            appendField(tag).append(" comes after ");
            appendField(group.tags[last]).append(" in ");
            appendGroupInstance(group).append(": the dictionary has it before");
            return GROUP_FIELDS_OUT_OF_ORDER;
        } else {
            noteMissing(group, last + 1, member);
        }
        groupLast[level] = member;
        placedScope = group;
        placedMember = member;
        return FixDecoder.OK;
    }

    /** Header, body or trailer field: in that order, each once. */
    private int topLevel(final int tag) {
        int where = HEADER;
        int member = sections[HEADER].indexOf(tag);
        while (member < 0 && where < TRAILER) {
            member = sections[++where].indexOf(tag);
        }
        if (member < 0) {
            if (!validateUnusedFields) {
                return SKIP;
            }
            reject(tag);
            appendField(tag).append(" is not defined for MsgType ");
            appendMsgType();
            return TAG_NOT_DEFINED_FOR_MSG_TYPE;
        }
        final int closed = closeGroupsAbove(-1);
        if (closed != FixDecoder.OK) {
            return closed;
        }
        if (where < section) {
            reject(tag);
            appendField(tag).append(where == HEADER ? " is a header field after the body" : " is a body field after the trailer");
            return FixDecoder.TAG_OUT_OF_ORDER;
        }
        section = where;
        if (seen[where][member] == generation) {
            reject(tag);
            appendField(tag).append(" appears more than once");
            return FixDecoder.TAG_REPEATED;
        }
        seen[where][member] = generation;
        placedScope = sections[where];
        placedMember = member;
        return FixDecoder.OK;
    }

    /** Pushes the group a NumInGroup field starts, with its count. */
    private int openGroup(final FixScope group, final int offset, final int length) {
        int count = 0;
        for (int i = 0; i < length; i++) {
            final byte b = buffer.getByte(offset + i);
            if (b < '0' || b > '9') {
                reject(group.countTag);
                appendField(group.countTag).append(" is not a whole number: ");
                appendValue(offset, length);
                return FixDecoder.INCORRECT_DATA_FORMAT;
            }
            count = Math.min(COUNT_CAP, count * 10 + (b - '0'));
        }
        groupScope[depth] = group;
        groupDeclared[depth] = count;
        groupInstances[depth] = 0;
        groupLast[depth] = -1;
        depth++;
        return FixDecoder.OK;
    }

    /** Ends the groups nested deeper than level (-1: all), checking each one's count. */
    private int closeGroupsAbove(final int level) {
        while (depth > level + 1) {
            final int top = depth - 1;
            final FixScope group = groupScope[top];
            if (groupInstances[top] > 0) {
                noteMissing(group, groupLast[top] + 1, group.tags.length);
            }
            if (groupInstances[top] != groupDeclared[top]) {
                reject(group.countTag);
                appendField(group.countTag).append(" is ").append(groupDeclared[top]).append(" but ")
                    .append(groupInstances[top]).append(groupInstances[top] == 1 ? " instance follows" : " instances follow");
                return INCORRECT_NUM_IN_GROUP_COUNT;
            }
            depth--;
        }
        return FixDecoder.OK;
    }

    /** Keeps the first required member of a group instance in [from, to) that is missing, the first in field order. */
    private void noteMissing(final FixScope group, final int from, final int to) {
        final int required = group.firstRequiredFrom(from);
        if (missingTag == 0 && required < to) {
            missingTag = group.tags[required];
            missingGroup = group;
        }
    }

    /** After the last field: open groups end, then required fields missing anywhere. */
    private int end() {
        final int closed = closeGroupsAbove(-1);
        if (closed != FixDecoder.OK) {
            return closed;
        }
        if (missingTag != 0) {
            reject(missingTag).append("required ");
            appendField(missingTag).append(" is missing from ");
            appendGroupInstance(missingGroup);
            return FixDecoder.REQUIRED_TAG_MISSING;
        }
        for (int where = HEADER; where <= TRAILER; where++) {
            final FixScope scope = sections[where];
            for (int m = scope.firstRequiredFrom(0); m < scope.tags.length; m = scope.firstRequiredFrom(m + 1)) {
                if (seen[where][m] != generation) {
                    reject(scope.tags[m]).append("required ");
                    appendField(scope.tags[m]).append(" is missing");
                    return FixDecoder.REQUIRED_TAG_MISSING;
                }
            }
        }
        return FixDecoder.OK;
    }

    private int checkValue(final int tag, final int offset, final int length) {
        final byte type = dictionary.type(tag);
        if (!FixFieldTypes.valid(type, buffer, offset, length)) {
            reject(tag);
            appendField(tag).append(" is not a ").append(FixFieldTypes.name(type)).append(": ");
            appendValue(offset, length);
            return FixDecoder.INCORRECT_DATA_FORMAT;
        }
        if (dictionary.hasEnumeration(tag) && !enumerated(tag, type, offset, length)) {
            reject(tag);
            appendField(tag).append(" has no value ");
            appendValue(offset, length);
            return VALUE_OUT_OF_RANGE;
        }
        return FixDecoder.OK;
    }

    /** Whether the value, or each space-separated token of a MULTIPLEVALUESTRING, is one of the tag's values. */
    private boolean enumerated(final int tag, final byte type, final int offset, final int length) {
        if (type != FixFieldTypes.MULTIPLE_VALUE_STRING) {
            return dictionary.inEnumeration(tag, buffer, offset, length);
        }
        int start = offset;
        final int end = offset + length;
        for (int i = offset; i <= end; i++) {
            if (i == end || buffer.getByte(i) == ' ') {
                if (!dictionary.inEnumeration(tag, buffer, start, i - start)) {
                    return false;
                }
                start = i + 1;
            }
        }
        return true;
    }

    private StringBuilder reject(final int tag) {
        refTag = tag;
        text.setLength(0);
        return text;
    }

    /** "Name (tag)". */
    private StringBuilder appendField(final int tag) {
        return text.append(dictionary.name(tag)).append(" (").append(tag).append(')');
    }

    private StringBuilder appendGroupInstance(final FixScope group) {
        text.append("an instance of ");
        return appendField(group.countTag);
    }

    private void appendMsgType() {
        text.append((char) (msgType & 0xFF));
        if ((msgType >>> 8) != 0) {
            text.append((char) ((msgType >>> 8) & 0xFF));
        }
    }

    /** The value as received (ISO-8859-1), cut at 40 bytes. */
    private void appendValue(final int offset, final int length) {
        text.append('\'');
        for (int i = 0; i < Math.min(length, MAX_VALUE_IN_TEXT); i++) {
            text.append((char) (buffer.getByte(offset + i) & 0xFF));
        }
        text.append(length > MAX_VALUE_IN_TEXT ? "...'" : "'");
    }
}
