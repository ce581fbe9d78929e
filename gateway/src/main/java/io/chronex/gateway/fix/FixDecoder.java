package io.chronex.gateway.fix;

import io.chronex.gateway.core.Decimals;
import org.agrona.DirectBuffer;

import java.nio.charset.StandardCharsets;

/**
 * A reusable FIX 4.4 tag=value decoder over an Agrona buffer. {@link #frame} finds where a message
 * ends in a byte stream; {@link #decode} checks one framed message (first the frame: 8, 9, 35 first,
 * BodyLength, CheckSum, BeginString; then field syntax, required header fields, repeated tags) and
 * indexes its fields, so accessors are O(1) for tags below 1024. Nothing here allocates except
 * {@link #stringValue} and the text of a garbled message (for logs and replies to bad input), and
 * nothing throws on any input.
 */
public final class FixDecoder {
    public static final int OK = -1;
    /**
     * {@link #decode}: a garbled message (FIX 4.4 Volume 2: 8, 9 and 35 not the first three fields, a wrong BodyLength,
     * a wrong CheckSum or one that is not the last field). The specification says to ignore it: no answer, and its
     * MsgSeqNum is not counted, so the next good message shows the gap and the resend brings it again.
     */
    public static final int GARBLED = -2;
    /** {@link #decode}: a well-framed message of another FIX version: answered with a Logout, then the connection closes. */
    public static final int WRONG_BEGIN_STRING = -3;
    /** {@link #frame}: these bytes cannot start a FIX message. */
    public static final int FRAME_GARBAGE = -1;
    /** {@link #frame}: the message declares itself longer than allowed. */
    public static final int FRAME_TOO_LONG = -2;

    public static final long DECIMAL_MISSING = Decimals.MISSING;
    public static final long DECIMAL_MALFORMED = Decimals.MALFORMED;
    public static final long DECIMAL_NOT_EXACT = Decimals.NOT_EXACT;

    /** SessionRejectReason (373) values {@link #decode} returns. */
    public static final int INVALID_TAG_NUMBER = 0;
    public static final int REQUIRED_TAG_MISSING = 1;
    public static final int TAG_WITHOUT_VALUE = 4;
    public static final int INCORRECT_DATA_FORMAT = 6;
    public static final int INVALID_MSG_TYPE = 11;
    public static final int TAG_REPEATED = 13;
    public static final int TAG_OUT_OF_ORDER = 14;
    public static final int OTHER = 99;

    private static final byte SOH = 1;
    private static final byte[] BEGIN = "8=FIX.4.4\u00019=".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] BEGIN_STRING = "FIX.4.4".getBytes(StandardCharsets.US_ASCII);
    /** What a message can start with: garbage before it is skipped up to here (see {@link #garbageLength}). */
    private static final byte[] MESSAGE_START = "8=FIX".getBytes(StandardCharsets.US_ASCII);
    /** A BeginString value longer than this is not one ("FIXT.1.1" is the longest there is). */
    private static final int MAX_BEGIN_STRING = 16;
    /** "10=ddd<SOH>", the CheckSum field that ends every message. */
    private static final int CHECKSUM_FIELD_LENGTH = 7;
    /** "<SOH>10=ddd<SOH>": the previous field's SOH and the CheckSum field, how the end of a message is found. */
    private static final int TRAILER_LENGTH = 1 + CHECKSUM_FIELD_LENGTH;
    // UTCTimestamp, YYYYMMDD-HH:MM:SS[.fraction]: where each part starts in the value.
    private static final int TIMESTAMP_YEAR = 0;            // 4 digits
    private static final int TIMESTAMP_MONTH = 4;           // 2 digits
    private static final int TIMESTAMP_DAY = 6;             // 2 digits
    private static final int TIMESTAMP_DASH = 8;            // '-'
    private static final int TIMESTAMP_HOUR = 9;            // 2 digits
    private static final int TIMESTAMP_COLON = 11;          // ':'
    private static final int TIMESTAMP_MINUTE = 12;         // 2 digits
    private static final int TIMESTAMP_SECOND_COLON = 14;   // ':'
    private static final int TIMESTAMP_SECOND = 15;         // 2 digits
    private static final int TIMESTAMP_DOT = 17;            // '.', or the end of a value without a fraction
    private static final int TIMESTAMP_FRACTION = 18;       // 1 to 9 digits; the first 3 are milliseconds
    private static final int TIMESTAMP_MAX_LENGTH = 27;
    private static final int MAX_FIELDS = 256;
    private static final int DIRECT_TAGS = 1024;

    private final int[] tags = new int[MAX_FIELDS];
    private final int[] offsets = new int[MAX_FIELDS];
    private final int[] lengths = new int[MAX_FIELDS];
    private final int[] slotByTag = new int[DIRECT_TAGS];
    private final int[] generationByTag = new int[DIRECT_TAGS];
    private int generation;
    private int fieldCount;
    private DirectBuffer buffer;
    private int msgType;
    private long msgSeqNum;
    private int rejectRefTag;
    /** Whether BeginString was FIX.4.4. */
    private boolean fix44;
    /** SendingTime (52) in epoch milliseconds, read once by the header check (Long.MIN_VALUE: not read or malformed). */
    private long sendingTime;
    private final StringBuilder rejectText = new StringBuilder(128);
    private final boolean repeatedTagsAllowed;

    /** A decoder that refuses any repeated tag (13): without a dictionary it cannot tell a repeating group's members. */
    public FixDecoder() {
        this(false);
    }

    /**
     * @param repeatedTagsAllowed true leaves repeated tags to a dictionary check ({@link FixValidator}, which knows
     *        repeating groups, whose instances repeat their members' tags); accessors by tag then see a tag's first occurrence
     */
    public FixDecoder(final boolean repeatedTagsAllowed) {
        this.repeatedTagsAllowed = repeatedTagsAllowed;
    }

    /**
     * Looks for one whole message at the start of [offset, offset + length): "8=FIX" and everything up
     * to the first CheckSum field ("&lt;SOH&gt;10=ddd&lt;SOH&gt;"), whatever the BeginString and BodyLength say:
     * a message with a wrong BodyLength or of another FIX version is then answered as the
     * specification says (ignored as garbled, or a Logout), never a lost stream.
     *
     * @return its total length; 0 when more bytes are needed; {@link #FRAME_GARBAGE} (these bytes cannot start a
     * message: see {@link #garbageLength}) or {@link #FRAME_TOO_LONG}
     */
    public static int frame(final DirectBuffer buf, final int offset, final int length, final int maxMessageLength) {
        // "8=FIX" (any version), the same start garbageLength looks for: garbage that happens to begin "8=" must not
        // swallow the next real message up to its CheckSum.
        for (int i = 0; i < Math.min(length, MESSAGE_START.length); i++) {
            if (buf.getByte(offset + i) != MESSAGE_START[i]) {
                return FRAME_GARBAGE;
            }
        }
        final int end = offset + length;
        if (declaredLength(buf, offset, end) > maxMessageLength) {
            return FRAME_TOO_LONG;
        }
        for (int i = offset + 2; i + TRAILER_LENGTH <= end; i++) {
            if (buf.getByte(i) == SOH && buf.getByte(i + 1) == '1' && buf.getByte(i + 2) == '0' && buf.getByte(i + 3) == '='
                && buf.getByte(i + TRAILER_LENGTH - 1) == SOH) {
                return i + TRAILER_LENGTH - offset;
            }
            if (i + TRAILER_LENGTH - offset > maxMessageLength) {
                return FRAME_TOO_LONG;
            }
        }
        return end - offset >= maxMessageLength ? FRAME_TOO_LONG : 0;
    }

    /** The whole length a "8=FIX.4.4&lt;SOH&gt;9=n&lt;SOH&gt;" start announces, so a huge one is refused before it is read; else -1. */
    private static long declaredLength(final DirectBuffer buf, final int offset, final int end) {
        if (end - offset <= BEGIN.length) {
            return -1;
        }
        for (int i = 0; i < BEGIN.length; i++) {
            if (buf.getByte(offset + i) != BEGIN[i]) {
                return -1;
            }
        }
        long bodyLength = 0;
        int digits = 0;
        for (int position = offset + BEGIN.length; position < end; position++) {
            final byte b = buf.getByte(position);
            if (b == SOH) {
                return digits == 0 ? -1 : (position + 1 - offset) + bodyLength + CHECKSUM_FIELD_LENGTH;
            }
            if (b < '0' || b > '9' || ++digits > 7) {
                return -1;
            }
            bodyLength = bodyLength * 10 + (b - '0');
        }
        return -1;
    }

    /**
     * How many bytes at the start of [offset, offset + length) to drop so that the next possible message ("8=FIX")
     * comes first: garbage between messages on a logged-on session is skipped, as the specification treats it.
     */
    public static int garbageLength(final DirectBuffer buf, final int offset, final int length) {
        for (int i = 1; i < length; i++) {
            final int compare = Math.min(MESSAGE_START.length, length - i);
            int matched = 0;
            while (matched < compare && buf.getByte(offset + i + matched) == MESSAGE_START[matched]) {
                matched++;
            }
            if (matched == compare) {
                return i;
            }
        }
        return length;
    }

    /**
     * Checks and indexes one framed message.
     *
     * @return {@link #OK}, or the SessionRejectReason (373) that fits the first problem found; then
     * {@link #rejectRefTag()} and {@link #rejectText()} describe it and {@link #msgSeqNum()} and
     * {@link #msgType()} hold what could be read of them
     */
    public int decode(final DirectBuffer buf, final int offset, final int length) {
        begin(buf);
        final int frame = checkFrame(buf, offset, offset + length);
        if (frame != OK) {
            return frame;
        }
        final int fields = indexFields(buf, offset, offset + length);
        if (!fix44) {
            // Checked after the fields are read, so the Logout that answers it can name the CompIDs.
            return reject(WRONG_BEGIN_STRING, FixTags.BEGIN_STRING, "BeginString (8) must be FIX.4.4");
        }
        if (fields != OK) {
            return fields;
        }
        return checkHeader();
    }

    private void begin(final DirectBuffer buf) {
        buffer = buf;
        fieldCount = 0;
        msgType = 0;
        msgSeqNum = -1;
        rejectRefTag = 0;
        rejectText.setLength(0);
        fix44 = false;
        sendingTime = Long.MIN_VALUE;
        if (++generation == 0) {
            java.util.Arrays.fill(generationByTag, 0);
            generation = 1;
        }
    }

    /** Splits [offset, end) into tag=value fields and indexes them, noting MsgType, MsgSeqNum and where CheckSum starts. */
    private int indexFields(final DirectBuffer buf, final int offset, final int end) {
        int position = offset;
        while (position < end) {
            int tag = 0;
            int tagDigits = 0;
            byte b = 0;
            while (position < end && (b = buf.getByte(position)) != '=' && b != SOH) {
                if (b < '0' || b > '9' || (tagDigits == 0 && b == '0') || tagDigits >= 6) {
                    return reject(INVALID_TAG_NUMBER, 0, "a tag number is not a positive whole number");
                }
                tag = tag * 10 + (b - '0');
                tagDigits++;
                position++;
            }
            if (position >= end || b != '=' || tagDigits == 0) {
                return reject(tagDigits == 0 ? INVALID_TAG_NUMBER : OTHER, tag, "a field is not tag=value");
            }
            position++;
            final int valueStart = position;
            while (position < end && buf.getByte(position) != SOH) {
                position++;
            }
            if (position >= end) {
                return reject(OTHER, tag, "the last field is not ended by SOH");
            }
            final int valueLength = position - valueStart;
            position++;
            final int field = checkField(tag, valueLength, position == end);
            if (field != OK) {
                return field;
            }
            noteHeaderField(buf, tag, valueStart, valueLength);
            index(tag, valueStart, valueLength);
        }
        return OK;
    }

    private int checkField(final int tag, final int valueLength, final boolean last) {
        if (valueLength == 0) {
            return reject(TAG_WITHOUT_VALUE, tag, "tag " + tag + " has no value");
        }
        if (fieldCount == MAX_FIELDS) {
            return reject(OTHER, tag, "more than " + MAX_FIELDS + " fields");
        }
        if (!repeatedTagsAllowed && find(tag) >= 0) {
            return reject(TAG_REPEATED, tag, "tag " + tag + " appears more than once");
        }
        if (tag == FixTags.CHECK_SUM && !last) {
            return reject(GARBLED, tag, "CheckSum (10) is not the last field");
        }
        return OK;
    }

    /** Keeps MsgSeqNum and MsgType as read (the first of repeats, when allowed), so a reject can still name them. */
    private void noteHeaderField(final DirectBuffer buf, final int tag, final int valueStart, final int valueLength) {
        if (tag == FixTags.MSG_SEQ_NUM && find(tag) < 0) {
            final long seq = parseLong(valueStart, valueLength);
            msgSeqNum = seq > 0 && seq != Long.MIN_VALUE ? seq : -1;
        } else if (tag == FixTags.MSG_TYPE && valueLength <= 2 && find(tag) < 0) {
            msgType = buf.getByte(valueStart) & 0xFF | (valueLength == 2 ? (buf.getByte(valueStart + 1) & 0xFF) << 8 : 0);
        }
    }

    /**
     * The frame, read from the bytes before any field is indexed: BeginString, BodyLength and MsgType first, in that
     * order, a BodyLength that counts the body exactly and a CheckSum (the last field) that adds up. Any of these wrong
     * makes the message garbled ({@link #GARBLED}).
     */
    private int checkFrame(final DirectBuffer buf, final int offset, final int end) {
        if (end - offset < 2 || buf.getByte(offset) != '8' || buf.getByte(offset + 1) != '=') {
            return reject(GARBLED, FixTags.BEGIN_STRING, "BeginString (8) is not the first field");
        }
        int position = offset + 2;
        while (position < end && position - offset <= MAX_BEGIN_STRING + 2 && buf.getByte(position) != SOH) {
            position++;
        }
        if (position >= end || buf.getByte(position) != SOH || position == offset + 2) {
            return reject(GARBLED, FixTags.BEGIN_STRING, "BeginString (8) is not a FIX version");
        }
        fix44 = position - (offset + 2) == BEGIN_STRING.length && bytesEqual(buf, offset + 2, BEGIN_STRING);
        position++;
        if (end - position < 3 || buf.getByte(position) != '9' || buf.getByte(position + 1) != '=') {
            return reject(GARBLED, FixTags.BODY_LENGTH, "BodyLength (9) is not the second field");
        }
        position += 2;
        long declaredBody = 0;
        int digits = 0;
        while (position < end && buf.getByte(position) != SOH) {
            final byte b = buf.getByte(position++);
            if (b < '0' || b > '9' || ++digits > 7) {
                return reject(GARBLED, FixTags.BODY_LENGTH, "BodyLength (9) is not a whole number");
            }
            declaredBody = declaredBody * 10 + (b - '0');
        }
        final int bodyStart = position + 1;
        if (digits == 0 || end - bodyStart < 4 || buf.getByte(bodyStart) != '3' || buf.getByte(bodyStart + 1) != '5'
            || buf.getByte(bodyStart + 2) != '=') {
            return reject(GARBLED, FixTags.MSG_TYPE, "MsgType (35) is not the third field");
        }
        final int checksumStart = end - CHECKSUM_FIELD_LENGTH;
        if (checksumStart <= bodyStart || buf.getByte(checksumStart - 1) != SOH || buf.getByte(checksumStart) != '1'
            || buf.getByte(checksumStart + 1) != '0' || buf.getByte(checksumStart + 2) != '=' || buf.getByte(end - 1) != SOH) {
            return reject(GARBLED, FixTags.CHECK_SUM, "the message does not end with a CheckSum (10) field of 3 digits");
        }
        if (declaredBody != checksumStart - bodyStart) {
            return reject(GARBLED, FixTags.BODY_LENGTH, "BodyLength is " + declaredBody + " but the body has "
                + (checksumStart - bodyStart) + " bytes");
        }
        return checkSum(buf, offset, checksumStart);
    }

    private int checkSum(final DirectBuffer buf, final int offset, final int checksumStart) {
        int declared = 0;
        for (int i = checksumStart + 3; i < checksumStart + 6; i++) {
            final byte b = buf.getByte(i);
            declared = b < '0' || b > '9' || declared < 0 ? -1 : declared * 10 + (b - '0');
        }
        int sum = 0;
        for (int i = offset; i < checksumStart; i++) {
            sum += buf.getByte(i) & 0xFF;
        }
        sum &= 0xFF;
        if (declared != sum) {
            return reject(GARBLED, FixTags.CHECK_SUM, "CheckSum is " + buf.getStringWithoutLengthAscii(checksumStart + 3, 3)
                + ", computed " + (sum < 10 ? "00" : sum < 100 ? "0" : "") + sum);
        }
        return OK;
    }

    private static boolean bytesEqual(final DirectBuffer buf, final int offset, final byte[] ascii) {
        for (int i = 0; i < ascii.length; i++) {
            if (buf.getByte(offset + i) != ascii[i]) {
                return false;
            }
        }
        return true;
    }

    /** The header fields every message needs, in the order their rejects are reported. */
    private int checkHeader() {
        if (valueLength(FixTags.MSG_TYPE) > 2) {
            return reject(INVALID_MSG_TYPE, FixTags.MSG_TYPE, "MsgType " + stringValue(FixTags.MSG_TYPE) + " is not valid");
        }
        if (!has(FixTags.SENDER_COMP_ID)) {
            return reject(REQUIRED_TAG_MISSING, FixTags.SENDER_COMP_ID, "SenderCompID (49) is missing");
        }
        if (!has(FixTags.TARGET_COMP_ID)) {
            return reject(REQUIRED_TAG_MISSING, FixTags.TARGET_COMP_ID, "TargetCompID (56) is missing");
        }
        // A SequenceReset in reset mode is applied whatever its MsgSeqNum: the specification says to ignore it.
        final boolean sequenceReset = msgType == FixMsgTypes.SEQUENCE_RESET && charValue(FixTags.GAP_FILL_FLAG) != 'Y';
        if (!sequenceReset && !has(FixTags.MSG_SEQ_NUM)) {
            return reject(REQUIRED_TAG_MISSING, FixTags.MSG_SEQ_NUM, "MsgSeqNum (34) is missing");
        }
        if (!sequenceReset && msgSeqNum < 1) {
            return reject(INCORRECT_DATA_FORMAT, FixTags.MSG_SEQ_NUM, "MsgSeqNum (34) is not a positive whole number");
        }
        if (!has(FixTags.SENDING_TIME)) {
            return reject(REQUIRED_TAG_MISSING, FixTags.SENDING_TIME, "SendingTime (52) is missing");
        }
        sendingTime = utcTimestampMillis(FixTags.SENDING_TIME);
        if (sendingTime == Long.MIN_VALUE) {
            return reject(INCORRECT_DATA_FORMAT, FixTags.SENDING_TIME, "SendingTime (52) is not YYYYMMDD-HH:MM:SS[.sss]");
        }
        return OK;
    }

    private int reject(final int reason, final int tag, final String text) {
        return invalid(reason, tag, text);
    }

    /**
     * Marks the decoded message invalid for a rule its reader checks after decoding: the reason is returned, and
     * {@link #rejectRefTag()} and {@link #rejectText()} name the tag and the rule for the Reject, as for the decoder's own.
     */
    public int invalid(final int reason, final int tag, final CharSequence text) {
        rejectRefTag = tag;
        rejectText.setLength(0);
        rejectText.append(text);
        return reason;
    }

    private void index(final int tag, final int valueOffset, final int valueLength) {
        tags[fieldCount] = tag;
        offsets[fieldCount] = valueOffset;
        lengths[fieldCount] = valueLength;
        if (tag < DIRECT_TAGS && generationByTag[tag] != generation) {
            slotByTag[tag] = fieldCount;
            generationByTag[tag] = generation;
        }
        fieldCount++;
    }

    private int find(final int tag) {
        if (tag < DIRECT_TAGS) {
            return generationByTag[tag] == generation ? slotByTag[tag] : -1;
        }
        for (int i = 0; i < fieldCount; i++) {
            if (tags[i] == tag) {
                return i;
            }
        }
        return -1;
    }

    public int rejectRefTag() {
        return rejectRefTag;
    }

    public CharSequence rejectText() {
        return rejectText;
    }

    /** MsgType packed as in {@link FixMsgTypes}; 0 when it could not be read. */
    public int msgType() {
        return msgType;
    }

    /** SendingTime (52) as epoch milliseconds, as the header check read it; Long.MIN_VALUE unless decode returned OK. */
    public long sendingTimeMillis() {
        return sendingTime;
    }

    /** MsgSeqNum, or -1 when missing or malformed. */
    public long msgSeqNum() {
        return msgSeqNum;
    }

    public DirectBuffer buffer() {
        return buffer;
    }

    public int fieldCount() {
        return fieldCount;
    }

    public int tagAt(final int index) {
        return tags[index];
    }

    /** Offset in {@link #buffer()} of the value of the field at index (0 = BeginString), in the order received. */
    public int valueOffsetAt(final int index) {
        return offsets[index];
    }

    public int valueLengthAt(final int index) {
        return lengths[index];
    }

    public boolean has(final int tag) {
        return find(tag) >= 0;
    }

    /** Offset of the tag's value in {@link #buffer()}, or -1. */
    public int valueOffset(final int tag) {
        final int slot = find(tag);
        return slot < 0 ? -1 : offsets[slot];
    }

    /** Length of the tag's value, or -1. */
    public int valueLength(final int tag) {
        final int slot = find(tag);
        return slot < 0 ? -1 : lengths[slot];
    }

    /** A whole number (optionally signed), or Long.MIN_VALUE when missing or malformed. */
    public long longValue(final int tag) {
        final int slot = find(tag);
        return slot < 0 ? Long.MIN_VALUE : parseLong(offsets[slot], lengths[slot]);
    }

    /** A one-character value, or 0. */
    public char charValue(final int tag) {
        final int slot = find(tag);
        return slot < 0 || lengths[slot] != 1 ? 0 : (char) (buffer.getByte(offsets[slot]) & 0xFF);
    }

    /** True only for "Y". */
    public boolean booleanValue(final int tag) {
        return charValue(tag) == 'Y';
    }

    public boolean valueEquals(final int tag, final byte[] ascii) {
        final int slot = find(tag);
        if (slot < 0 || lengths[slot] != ascii.length) {
            return false;
        }
        final int offset = offsets[slot];
        for (int i = 0; i < ascii.length; i++) {
            if (buffer.getByte(offset + i) != ascii[i]) {
                return false;
            }
        }
        return true;
    }

    /** The value as a String (allocates: for logs and error replies only); null when missing. */
    public String stringValue(final int tag) {
        final int slot = find(tag);
        if (slot < 0) {
            return null;
        }
        final byte[] bytes = new byte[lengths[slot]];
        buffer.getBytes(offsets[slot], bytes);
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    /**
     * A decimal value times 10^decimals when that is a whole number: "100.05" at 2 is 10005. Else
     * {@link #DECIMAL_MISSING}, {@link #DECIMAL_MALFORMED} (not a decimal, or too large) or
     * {@link #DECIMAL_NOT_EXACT} (a non-zero digit beyond the given decimals).
     */
    public long scaledDecimal(final int tag, final int decimals) {
        final int slot = find(tag);
        return slot < 0 ? DECIMAL_MISSING : Decimals.scaled(buffer, offsets[slot], lengths[slot], decimals);
    }

    /** UTCTimestamp YYYYMMDD-HH:MM:SS[.fraction] as epoch milliseconds, or Long.MIN_VALUE. */
    public long utcTimestampMillis(final int tag) {
        final int slot = find(tag);
        if (slot < 0) {
            return Long.MIN_VALUE;
        }
        final int o = offsets[slot];
        final int length = lengths[slot];
        if (length != TIMESTAMP_DOT && (length <= TIMESTAMP_FRACTION || length > TIMESTAMP_MAX_LENGTH
            || buffer.getByte(o + TIMESTAMP_DOT) != '.')) {
            return Long.MIN_VALUE;
        }
        if (buffer.getByte(o + TIMESTAMP_DASH) != '-' || buffer.getByte(o + TIMESTAMP_COLON) != ':'
            || buffer.getByte(o + TIMESTAMP_SECOND_COLON) != ':') {
            return Long.MIN_VALUE;
        }
        final int year = digits(o + TIMESTAMP_YEAR, 4);
        final int month = digits(o + TIMESTAMP_MONTH, 2);
        final int day = digits(o + TIMESTAMP_DAY, 2);
        final int hour = digits(o + TIMESTAMP_HOUR, 2);
        final int minute = digits(o + TIMESTAMP_MINUTE, 2);
        final int second = digits(o + TIMESTAMP_SECOND, 2);
        int millis = 0;
        if (length > TIMESTAMP_DOT) {
            final int fractionDigits = length - TIMESTAMP_FRACTION;
            final int f = digits(o + TIMESTAMP_FRACTION, Math.min(3, fractionDigits));
            if (f < 0 || (fractionDigits > 3 && digits(o + TIMESTAMP_FRACTION + 3, fractionDigits - 3) < 0)) {
                return Long.MIN_VALUE;
            }
            millis = fractionDigits >= 3 ? f : fractionDigits == 2 ? f * 10 : f * 100;
        }
        if (year < 0 || month < 1 || month > 12 || day < 1 || day > 31 || hour < 0 || hour > 23 || minute < 0 || minute > 59
            || second < 0 || second > 60) {
            return Long.MIN_VALUE;
        }
        return ((Dates.daysFromCivil(year, month, day) * 24 + hour) * 60 + minute) * 60_000L + second * 1000L + millis;
    }

    private int digits(final int offset, final int count) {
        int value = 0;
        for (int i = 0; i < count; i++) {
            final byte b = buffer.getByte(offset + i);
            if (b < '0' || b > '9') {
                return -1;
            }
            value = value * 10 + (b - '0');
        }
        return value;
    }

    private long parseLong(final int offset, final int length) {
        return Decimals.whole(buffer, offset, length);
    }
}
