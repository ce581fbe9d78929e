package io.chronex.gateway.fix;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The dictionary check on decoded messages: each SessionRejectReason of FIX 4.4 session test case 14 with its
 * RefTagID, the messages a QuickFIX/J client sends passing, the lenient mode, the value formats, no allocation.
 */
class FixValidatorTest {
    private static final String HEADER = "49=CLIENT|56=CHRONEX|34=2|52=20261122-10:31:07.123|";
    /** A NewOrderSingle as QuickFIX/J writes one, with two parties. */
    private static final String ORDER = "11=ORD-1|453=2|448=TRADER1|447=D|452=11|448=FIRM1|447=D|452=1|1=1001|21=1|55=ACME|54=1"
        + "|60=20261122-10:31:07.123|38=100|40=2|44=100.25|59=0|";
    /** The tags the gateway reads today, whose values the lenient mode still checks. */
    private static final int[] READ_TAGS = {1, 7, 11, 16, 18, 36, 38, 40, 41, 43, 44, 54, 55, 59, 60, 98, 108, 112, 122, 123, 141, 530};

    private final FixDecoder decoder = new FixDecoder(true);
    private final FixValidator strict = new FixValidator(FixDictionary.fix44(), true, new int[0]);
    private final FixValidator lenient = new FixValidator(FixDictionary.fix44(), false, READ_TAGS);

    /** The message of this type with the standard header and these fields, decoded (which must succeed). */
    private FixDecoder decoded(final String msgType, final String fields) {
        final String whole = FixCodecTest.message("35=" + msgType + "|" + HEADER + fields);
        final UnsafeBuffer buffer = new UnsafeBuffer(whole.getBytes(StandardCharsets.ISO_8859_1));
        assertEquals(FixDecoder.OK, decoder.decode(buffer, 0, buffer.capacity()), () -> decoder.rejectText().toString());
        return decoder;
    }

    private void passes(final FixValidator validator, final String msgType, final String fields) {
        assertEquals(FixDecoder.OK, validator.validate(decoded(msgType, fields)), () -> validator.text().toString());
    }

    private void passes(final String msgType, final String fields) {
        passes(strict, msgType, fields);
        passes(lenient, msgType, fields);
    }

    private void rejected(final FixValidator validator, final int reason, final int refTag, final String msgType, final String fields) {
        final int result = validator.validate(decoded(msgType, fields));
        assertEquals(reason, result, () -> "reason, text: " + validator.text());
        assertEquals(refTag, validator.refTag(), () -> "refTag, text: " + validator.text());
    }

    private void rejected(final int reason, final int refTag, final String msgType, final String fields) {
        rejected(strict, reason, refTag, msgType, fields);
    }

    @Test
    void whatTheGatewayAcceptsPasses() {
        passes("D", ORDER);
        passes("F", "41=ORD-1|11=ORD-2|55=ACME|54=1|60=20261122-10:31:08|38=100|");
        passes("G", "41=ORD-1|11=ORD-3|1=1001|21=1|55=ACME|54=1|60=20261122-10:31:09.5|38=200|40=2|44=100.5|59=1|");
        passes("q", "11=MC-1|530=7|60=20261122-10:31:10.123456|");
        passes("A", "98=0|108=30|141=Y|384=2|372=D|385=R|372=F|385=R|553=alice|554=secret|");
        passes("0", "112=TEST-1|");
        passes("0", "");
        passes("1", "112=TEST-1|");
        passes("2", "7=1|16=0|");
        passes("4", "123=Y|36=10|");
        passes("3", "45=3|371=55|372=D|373=5|58=unknown symbol|");
        passes("5", "58=bye|");
        passes("D", "115=BROKER|128=CHRONEX-EU|43=Y|122=20261122-10:31:06.999|" + ORDER);
        passes("D", ORDER + "5001=desk 7|");
        passes("D", "5001=x|11=ORD-1|453=1|448=T|5002=y|447=D|452=11|55=ACME|54=2|60=20261122-10:31:07|40=1|18=1 2 G|");
        passes("D", ORDER + "126=20261122-23:59:60|432=20240229|18=6|");
    }

    @Test
    void theDefaultDecoderStillRefusesARepeatedGroupMember() {
        final String whole = FixCodecTest.message("35=D|" + HEADER + ORDER);
        final UnsafeBuffer buffer = new UnsafeBuffer(whole.getBytes(StandardCharsets.ISO_8859_1));
        final FixDecoder plain = new FixDecoder();
        assertEquals(FixDecoder.TAG_REPEATED, plain.decode(buffer, 0, buffer.capacity()));
        assertEquals(448, plain.rejectRefTag());
        assertEquals(FixDecoder.OK, decoder.decode(buffer, 0, buffer.capacity()));
        assertEquals("TRADER1", decoder.stringValue(448), "accessors by tag see the first occurrence");
        assertEquals(2, decoder.msgSeqNum());
    }

    @Test
    void invalidTagNumber() {
        rejected(FixDecoder.INVALID_TAG_NUMBER, 999, "D", ORDER + "999=X|");
        assertEquals("tag 999 is not defined in FIX 4.4", strict.text().toString());
        rejected(FixDecoder.INVALID_TAG_NUMBER, 4999, "0", "4999=X|");
        rejected(FixDecoder.INVALID_TAG_NUMBER, 957, "D", "957=X|" + ORDER);
    }

    @Test
    void tagNotDefinedForTheMessageType() {
        rejected(FixValidator.TAG_NOT_DEFINED_FOR_MSG_TYPE, 55, "0", "55=ACME|");
        assertEquals("Symbol (55) is not defined for MsgType 0", strict.text().toString());
        rejected(FixValidator.TAG_NOT_DEFINED_FOR_MSG_TYPE, 112, "D", ORDER + "112=T|");
        rejected(FixValidator.TAG_NOT_DEFINED_FOR_MSG_TYPE, 448, "D", "11=ORD-1|448=T|", "a group member without its group");
    }

    private void rejected(final int reason, final int refTag, final String msgType, final String fields, final String why) {
        final int result = strict.validate(decoded(msgType, fields));
        assertEquals(reason, result, () -> why + "; text: " + strict.text());
        assertEquals(refTag, strict.refTag(), () -> why + "; text: " + strict.text());
    }

    @Test
    void tagOutOfRequiredOrder() {
        rejected(FixDecoder.TAG_OUT_OF_ORDER, 115, "D", "11=ORD-1|115=BROKER|55=ACME|54=1|60=20261122-10:31:07|40=1|");
        assertEquals("OnBehalfOfCompID (115) is a header field after the body", strict.text().toString());
        rejected(FixDecoder.TAG_OUT_OF_ORDER, 43, "D", ORDER + "43=Y|", "a header field at the end");
        rejected(FixDecoder.TAG_OUT_OF_ORDER, 58, "5", "93=3|89=abc|58=bye|", "a body field after the trailer");
        rejected(FixDecoder.TAG_OUT_OF_ORDER, 128, "D", "11=ORD-1|453=1|448=T|128=X|", "a header field ends the group, then is late");
        passes("5", "58=bye|93=3|89=abc|");
    }

    @Test
    void incorrectNumInGroupCount() {
        rejected(FixValidator.INCORRECT_NUM_IN_GROUP_COUNT, 453, "D", ORDER.replace("453=2|", "453=3|"));
        assertEquals("NoPartyIDs (453) is 3 but 2 instances follow", strict.text().toString());
        rejected(FixValidator.INCORRECT_NUM_IN_GROUP_COUNT, 453, "D", ORDER.replace("453=2|", "453=1|"));
        assertEquals("NoPartyIDs (453) is 1 but more instances follow", strict.text().toString());
        rejected(FixValidator.INCORRECT_NUM_IN_GROUP_COUNT, 453, "D", "11=ORD-1|453=1|55=ACME|", "no instance at all");
        rejected(FixValidator.INCORRECT_NUM_IN_GROUP_COUNT, 453, "D", "11=ORD-1|453=2|448=T|", "the group ends at the trailer");
        rejected(FixValidator.INCORRECT_NUM_IN_GROUP_COUNT, 802, "D", "11=ORD-1|453=1|448=T|802=2|523=S|447=D|", "nested");
        rejected(FixValidator.INCORRECT_NUM_IN_GROUP_COUNT, 384, "A", "98=0|108=30|384=1|372=D|372=F|");
        passes("D", "11=ORD-1|453=2|448=T1|447=D|452=11|802=2|523=S1|803=1|523=S2|448=F1|452=1|55=ACME|54=1|60=20261122-10:31:07|40=1|");
    }

    @Test
    void repeatingGroupFieldsOutOfOrder() {
        rejected(FixValidator.GROUP_FIELDS_OUT_OF_ORDER, 447, "D", "11=ORD-1|453=1|447=D|448=T|452=1|");
        assertEquals("an instance of NoPartyIDs (453) does not start with PartyID (448)", strict.text().toString());
        rejected(FixValidator.GROUP_FIELDS_OUT_OF_ORDER, 447, "D", "11=ORD-1|453=1|448=T|452=1|447=D|");
        assertEquals("PartyIDSource (447) comes after PartyRole (452) in an instance of NoPartyIDs (453): the dictionary has it before",
            strict.text().toString());
        rejected(FixValidator.GROUP_FIELDS_OUT_OF_ORDER, 385, "A", "98=0|108=30|384=1|385=R|372=D|");
        rejected(FixDecoder.TAG_REPEATED, 447, "D", "11=ORD-1|453=1|448=T|447=D|447=D|", "twice in one instance");
        rejected(FixDecoder.TAG_REPEATED, 55, "D", ORDER + "55=ACME|", "twice at the top level");
    }

    @Test
    void incorrectDataFormat() {
        rejected(FixDecoder.INCORRECT_DATA_FORMAT, 126, "D", ORDER + "126=abc|");
        assertEquals("ExpireTime (126) is not a UTCTimestamp (YYYYMMDD-HH:MM:SS[.sss]): 'abc'", strict.text().toString());
        rejected(FixDecoder.INCORRECT_DATA_FORMAT, 126, "D", ORDER + "126=20261301-25:00:00|");
        rejected(FixDecoder.INCORRECT_DATA_FORMAT, 126, "D", ORDER + "126=20261122-10:31:07.|");
        rejected(FixDecoder.INCORRECT_DATA_FORMAT, 38, "D", ORDER.replace("38=100|", "38=1O0|"));
        rejected(FixDecoder.INCORRECT_DATA_FORMAT, 44, "D", ORDER.replace("44=100.25|", "44=100.2.5|"));
        rejected(FixDecoder.INCORRECT_DATA_FORMAT, 43, "D", "43=X|" + ORDER, "BOOLEAN");
        rejected(FixDecoder.INCORRECT_DATA_FORMAT, 54, "D", ORDER.replace("54=1|", "54=12|"), "CHAR");
        rejected(FixDecoder.INCORRECT_DATA_FORMAT, 453, "D", ORDER.replace("453=2|", "453=two|"), "NumInGroup");
        rejected(FixDecoder.INCORRECT_DATA_FORMAT, 108, "A", "98=0|108=3O|");
        rejected(FixDecoder.INCORRECT_DATA_FORMAT, 16, "2", "7=1|16=-1|", "a SEQNUM is not negative");
        rejected(FixDecoder.INCORRECT_DATA_FORMAT, 432, "D", ORDER + "432=20230229|", "not a leap year");
        rejected(FixDecoder.INCORRECT_DATA_FORMAT, 18, "D", ORDER + "18=1  2|", "two spaces");
        rejected(FixDecoder.INCORRECT_DATA_FORMAT, 122, "D", "122=20261122 10:31:06|" + ORDER, "a header field");
    }

    @Test
    void valueOutOfRange() {
        rejected(FixValidator.VALUE_OUT_OF_RANGE, 21, "D", ORDER.replace("21=1|", "21=7|"));
        assertEquals("HandlInst (21) has no value '7'", strict.text().toString());
        rejected(FixValidator.VALUE_OUT_OF_RANGE, 40, "D", ORDER.replace("40=2|", "40=Z|"));
        rejected(FixValidator.VALUE_OUT_OF_RANGE, 54, "D", ORDER.replace("54=1|", "54=H|"));
        rejected(FixValidator.VALUE_OUT_OF_RANGE, 452, "D", ORDER.replace("452=11|", "452=23|"), "a group member");
        rejected(FixValidator.VALUE_OUT_OF_RANGE, 18, "D", ORDER + "18=1 $ 2|", "one token of a MULTIPLEVALUESTRING");
        rejected(FixValidator.VALUE_OUT_OF_RANGE, 98, "A", "98=7|108=30|");
        rejected(FixValidator.VALUE_OUT_OF_RANGE, 373, "3", "45=3|373=18|");
    }

    @Test
    void requiredTagMissing() {
        rejected(FixDecoder.REQUIRED_TAG_MISSING, 55, "D", ORDER.replace("55=ACME|", ""));
        assertEquals("required Symbol (55) is missing", strict.text().toString());
        rejected(FixDecoder.REQUIRED_TAG_MISSING, 41, "F", "11=ORD-2|55=ACME|54=1|60=20261122-10:31:08|");
        rejected(FixDecoder.REQUIRED_TAG_MISSING, 112, "1", "");
        rejected(FixDecoder.REQUIRED_TAG_MISSING, 108, "A", "98=0|");
        rejected(FixDecoder.REQUIRED_TAG_MISSING, 36, "4", "123=Y|");
        // NewOrderList: ListSeqNo (67) is required in each NoOrders instance, and reported before the body's missing BidType (394).
        rejected(FixDecoder.REQUIRED_TAG_MISSING, 67, "E", "66=L1|68=2|73=2|11=A|67=1|55=ACME|54=1|11=B|55=ACME|54=2|");
        assertEquals("required ListSeqNo (67) is missing from an instance of NoOrders (73)", strict.text().toString());
        rejected(FixDecoder.REQUIRED_TAG_MISSING, 394, "E", "66=L1|68=2|73=2|11=A|67=1|55=ACME|54=1|11=B|67=2|55=ACME|54=2|");
        rejected(FixValidator.GROUP_FIELDS_OUT_OF_ORDER, 67, "E", "66=L1|394=3|68=1|73=1|11=A|55=ACME|67=1|54=1|", "not missing: late");
    }

    @Test
    void firstProblemInFieldOrderWins() {
        rejected(FixValidator.VALUE_OUT_OF_RANGE, 21, "D", "11=ORD-1|21=7|999=X|", "before the unknown tag and the missing ones");
        rejected(FixDecoder.INVALID_TAG_NUMBER, 999, "D", "11=ORD-1|999=X|21=7|");
        rejected(FixValidator.INCORRECT_NUM_IN_GROUP_COUNT, 453, "D", "11=ORD-1|453=2|448=T|55=ACME|126=abc|", "the group ends at 55");
    }

    @Test
    void lenientModeChecksStructureAndTheFieldsTheGatewayReads() {
        passes(lenient, "D", ORDER + "999=X|");
        passes(lenient, "0", "55=ACME|");
        passes(lenient, "D", ORDER.replace("21=1|", "21=7|") + "126=abc|");
        passes(lenient, "D", ORDER.replace("452=11|", "452=23|"));
        passes(lenient, "D", "11=ORD-1|453=1|448=T|999=X|112=T|447=D|452=1|55=ACME|54=1|60=20261122-10:31:07|40=1|");
        rejected(lenient, FixValidator.VALUE_OUT_OF_RANGE, 40, "D", ORDER.replace("40=2|", "40=Z|"));
        rejected(lenient, FixDecoder.INCORRECT_DATA_FORMAT, 38, "D", ORDER.replace("38=100|", "38=1O0|"));
        rejected(lenient, FixDecoder.INCORRECT_DATA_FORMAT, 453, "D", ORDER.replace("453=2|", "453=two|"));
        rejected(lenient, FixValidator.INCORRECT_NUM_IN_GROUP_COUNT, 453, "D", ORDER.replace("453=2|", "453=3|"));
        rejected(lenient, FixValidator.GROUP_FIELDS_OUT_OF_ORDER, 447, "D", "11=ORD-1|453=1|447=D|448=T|");
        rejected(lenient, FixDecoder.TAG_OUT_OF_ORDER, 115, "D", "11=ORD-1|115=BROKER|");
        rejected(lenient, FixDecoder.REQUIRED_TAG_MISSING, 55, "D", ORDER.replace("55=ACME|", ""));
        assertThrows(IllegalArgumentException.class, () -> new FixValidator(FixDictionary.fix44(), false, new int[] {5001}));
    }

    @Test
    void aMessageTypeFix44DoesNotDefineIsInvalid() {
        rejected(FixDecoder.INVALID_MSG_TYPE, 35, "U", "");
        assertEquals("MsgType U is not defined in FIX 4.4", strict.text().toString());
    }

    @Test
    void formatsAreFix44s() {
        valid(FixFieldTypes.INT, "0", "-12", "007");
        invalid(FixFieldTypes.INT, "-", "+1", "1.0", "1 ", "x");
        valid(FixFieldTypes.COUNT, "0", "12");
        invalid(FixFieldTypes.COUNT, "-1", "1.0");
        valid(FixFieldTypes.DECIMAL, "1", "-1.5", "00023.230", ".5", "5.");
        invalid(FixFieldTypes.DECIMAL, "-", ".", "1.2.3", "1e5", "+1", "1,5", "--1");
        valid(FixFieldTypes.CHAR, "A", " ");
        invalid(FixFieldTypes.CHAR, "AB");
        valid(FixFieldTypes.BOOLEAN, "Y", "N");
        invalid(FixFieldTypes.BOOLEAN, "y", "YES", "1");
        valid(FixFieldTypes.MULTIPLE_VALUE_STRING, "A", "A B", "1 2 3");
        invalid(FixFieldTypes.MULTIPLE_VALUE_STRING, " A", "A ", "A  B", " ");
        valid(FixFieldTypes.UTC_TIMESTAMP, "20261122-10:31:07", "20261122-10:31:07.123", "20261122-10:31:07.1",
            "20261122-23:59:60.123456789", "20240229-00:00:00", "00010101-00:00:00");
        invalid(FixFieldTypes.UTC_TIMESTAMP, "20261122-10:31", "20261122-10:31:07.", "20261122-10:31:07.1234567890", "20261122 10:31:07",
            "20261122-24:00:00", "20261122-10:60:00", "20261122-10:31:61", "20261131-10:31:07", "20230229-10:31:07", "20261122-1O:31:07",
            "2026-11-22T10:31:07", "20261122-10:31:07Z", "20261122-10:31:07.12a");
        valid(FixFieldTypes.UTC_TIME_ONLY, "10:31:07", "10:31:07.123", "00:00:00");
        invalid(FixFieldTypes.UTC_TIME_ONLY, "10:31", "10:31:07.", "25:00:00", "10-31-07", "103107");
        valid(FixFieldTypes.DATE, "20261122", "20000229");
        invalid(FixFieldTypes.DATE, "2026112", "202611220", "20261322", "20261100", "19000229", "2026-11-22");
        valid(FixFieldTypes.MONTH_YEAR, "202611", "20261122", "202611w1", "202611w5");
        invalid(FixFieldTypes.MONTH_YEAR, "2026", "202613", "202611w6", "202611w", "20261131", "2026111");
        valid(FixFieldTypes.DATA, "\u0000anything");
    }

    private static void valid(final byte type, final String... values) {
        for (final String value : values) {
            assertTrue(formatted(type, value), () -> FixFieldTypes.name(type) + " " + value);
        }
    }

    private static void invalid(final byte type, final String... values) {
        for (final String value : values) {
            assertTrue(!formatted(type, value), () -> FixFieldTypes.name(type) + " " + value);
        }
    }

    private static boolean formatted(final byte type, final String value) {
        final byte[] bytes = value.getBytes(StandardCharsets.ISO_8859_1);
        return FixFieldTypes.valid(type, new UnsafeBuffer(bytes), 0, bytes.length);
    }

    @Test
    void validatingAllocatesNothing() {
        final UnsafeBuffer good = new UnsafeBuffer(FixCodecTest.message("35=D|" + HEADER + ORDER).getBytes(StandardCharsets.ISO_8859_1));
        final UnsafeBuffer bad = new UnsafeBuffer(FixCodecTest.message("35=D|" + HEADER + ORDER.replace("452=11|", "452=23|"))
            .getBytes(StandardCharsets.ISO_8859_1));
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        // Two rounds warm up; of the three measured, the smallest counts. In a JVM that ran other tests first, the JIT
        // now and then allocates a few KB on this thread at a method entry or loop back-edge (JFR shows byte[] where the
        // code has no 'new'); an allocation in the decoder or validator would show in every round, 400,000 times over.
        final long[] allocated = new long[5];
        long sink = 0;
        for (int round = 0; round < allocated.length; round++) {
            final long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 200_000; i++) {
                final UnsafeBuffer in = (i & 15) == 0 ? bad : good;
                decoder.decode(in, 0, in.capacity());
                sink += strict.validate(decoder) + lenient.validate(decoder) + strict.refTag() + strict.text().length();
            }
            allocated[round] = threads.getCurrentThreadAllocatedBytes() - before;
        }
        final long least = Math.min(allocated[2], Math.min(allocated[3], allocated[4]));
        System.out.println("FixValidatorTest: bytes allocated per round of 200,000 decodes and 400,000 validations (1 in 16 failing): "
            + java.util.Arrays.toString(allocated));
        assertTrue(least < 4096, "allocated " + java.util.Arrays.toString(allocated) + " bytes");
        assertEquals(FixDecoder.OK, decoder.decode(good, 0, good.capacity()));
        final int validations = 1_000_000;
        final long start = System.nanoTime();
        for (int i = 0; i < validations; i++) {
            sink += strict.validate(decoder);
        }
        final long nanos = System.nanoTime() - start;
        System.out.println("FixValidatorTest: " + nanos / validations + " ns per strict validation of a " + decoder.fieldCount()
            + "-field NewOrderSingle with two parties (informative)");
        assertTrue(sink != 0);
    }
}
