package io.chronex.gateway.fix;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The FIX codec: what it writes, what it accepts and refuses, and that it allocates nothing. */
class FixCodecTest {
    private static final String HEADER = "35=D|49=ALICE|56=CHRONEX|34=7|52=20261122-10:31:07.123|";

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[4096]);
    private final FixEncoder encoder = new FixEncoder(buffer);
    private final FixDecoder decoder = new FixDecoder();

    private static UnsafeBuffer text(final String s) {
        return new UnsafeBuffer(s.replace('|', '\u0001').getBytes(StandardCharsets.ISO_8859_1));
    }

    /** A whole message from a body written with '|' for SOH. */
    static String message(final String body) {
        final String b = body.replace('|', '\u0001');
        final String head = "8=FIX.4.4\u00019=" + b.length() + "\u0001";
        int sum = 0;
        for (final char c : (head + b).toCharArray()) {
            sum += c;
        }
        return head + b + "10=" + String.format("%03d", sum & 0xFF) + "\u0001";
    }

    private int decode(final String whole) {
        final UnsafeBuffer b = text(whole);
        assertEquals(b.capacity(), FixDecoder.frame(b, 0, b.capacity(), 4096));
        return decoder.decode(b, 0, b.capacity());
    }

    @Test
    void encodesWhatItDecodes() {
        encoder.start(100, FixMsgTypes.EXECUTION_REPORT)
            .addAscii(FixTags.SENDER_COMP_ID, "CHRONEX".getBytes(StandardCharsets.US_ASCII))
            .addAscii(FixTags.TARGET_COMP_ID, "ALICE")
            .addLong(FixTags.MSG_SEQ_NUM, 12345)
            .addUtcTimestamp(FixTags.SENDING_TIME, 1_795_349_467_123L)
            .addDecimal(FixTags.PRICE, 10005, 2)
            .addDecimal(FixTags.AVG_PX, -10000, 2)
            .addLong(FixTags.ORDER_QTY, -42)
            .addChar(FixTags.SIDE, '2')
            .addBoolean(FixTags.POSS_DUP_FLAG, true);
        final int length = encoder.finish();
        final int offset = encoder.messageOffset();
        assertEquals(length, FixDecoder.frame(buffer, offset, length + 10, 4096));
        assertEquals(FixDecoder.OK, decoder.decode(buffer, offset, length), () -> decoder.rejectText().toString());
        assertEquals(FixMsgTypes.EXECUTION_REPORT, decoder.msgType());
        assertEquals(12345, decoder.msgSeqNum());
        assertEquals(10005, decoder.scaledDecimal(FixTags.PRICE, 2));
        assertEquals(-10000, decoder.scaledDecimal(FixTags.AVG_PX, 2));
        assertEquals("-100", decoder.stringValue(FixTags.AVG_PX));
        assertEquals(-42, decoder.longValue(FixTags.ORDER_QTY));
        assertEquals('2', decoder.charValue(FixTags.SIDE));
        assertTrue(decoder.booleanValue(FixTags.POSS_DUP_FLAG));
        assertEquals(1_795_349_467_123L, decoder.utcTimestampMillis(FixTags.SENDING_TIME));
        assertEquals(DateTimeFormatter.ofPattern("yyyyMMdd-HH:mm:ss.SSS").withZone(ZoneOffset.UTC)
            .format(Instant.ofEpochMilli(1_795_349_467_123L)), decoder.stringValue(FixTags.SENDING_TIME));
        assertTrue(decoder.valueEquals(FixTags.TARGET_COMP_ID, "ALICE".getBytes(StandardCharsets.US_ASCII)));
        assertFalse(decoder.has(FixTags.TEXT));
        assertEquals("8=FIX.4.4", new String(buffer.byteArray(), offset, 9, StandardCharsets.US_ASCII));
    }

    @Test
    void timestampsAgreeWithJavaTimeOverCenturies() {
        final DateTimeFormatter f = DateTimeFormatter.ofPattern("yyyyMMdd-HH:mm:ss.SSS").withZone(ZoneOffset.UTC);
        final java.util.SplittableRandom random = new java.util.SplittableRandom(3);
        for (int i = 0; i < 20_000; i++) {
            final long millis = random.nextLong(-2_000_000_000_000L, 4_000_000_000_000L);
            encoder.start(0, FixMsgTypes.HEARTBEAT).addAscii(49, "A").addAscii(56, "B").addLong(34, 1).addUtcTimestamp(52, millis);
            final int length = encoder.finish();
            assertEquals(FixDecoder.OK, decoder.decode(buffer, encoder.messageOffset(), length));
            assertEquals(f.format(Instant.ofEpochMilli(millis)), decoder.stringValue(52));
            assertEquals(millis, decoder.utcTimestampMillis(52));
        }
    }

    @Test
    void decimalsAreExactOrRefused() {
        decode(message(HEADER + "44=100.1|38=10.000|31=100.005|32=abc|6=1.2.3|14=-|15=.5|"));
        assertEquals(10010, decoder.scaledDecimal(44, 2));
        assertEquals(10, decoder.scaledDecimal(38, 0), "trailing zeros beyond the scale are exact");
        assertEquals(FixDecoder.DECIMAL_NOT_EXACT, decoder.scaledDecimal(31, 2));
        assertEquals(100005, decoder.scaledDecimal(31, 3));
        assertEquals(FixDecoder.DECIMAL_MALFORMED, decoder.scaledDecimal(32, 2));
        assertEquals(FixDecoder.DECIMAL_MALFORMED, decoder.scaledDecimal(6, 2));
        assertEquals(FixDecoder.DECIMAL_MALFORMED, decoder.scaledDecimal(14, 2));
        assertEquals(50, decoder.scaledDecimal(15, 2));
        assertEquals(FixDecoder.DECIMAL_MISSING, decoder.scaledDecimal(99, 2));
        decode(message(HEADER + "44=99999999999999999999|"));
        assertEquals(FixDecoder.DECIMAL_MALFORMED, decoder.scaledDecimal(44, 2), "overflow");
    }

    @Test
    void eachProblemGetsItsSessionRejectReason() {
        assertEquals(FixDecoder.OK, decode(message(HEADER + "11=X|")));
        assertEquals(4, decode(message(HEADER + "11=|")));
        assertEquals(11, decoder.rejectRefTag());
        assertEquals(13, decode(message(HEADER + "11=X|11=Y|")));
        assertEquals(0, decode(message(HEADER + "011=X|")));
        assertEquals(0, decode(message(HEADER + "a=X|")));
        assertEquals(1, decode(message("35=D|56=CHRONEX|34=7|52=20261122-10:31:07|")));
        assertEquals(49, decoder.rejectRefTag());
        assertEquals(1, decode(message("35=D|49=A|56=CHRONEX|52=20261122-10:31:07|")));
        assertEquals(6, decode(message("35=D|49=A|56=CHRONEX|34=x|52=20261122-10:31:07|")));
        assertEquals(6, decode(message("35=D|49=A|56=CHRONEX|34=3|52=2026-11-22 10:31|")));
        assertEquals(11, decode(message("35=DDD|49=A|56=CHRONEX|34=3|52=20261122-10:31:07|")));
    }

    /** FIX 4.4 Volume 2, "what constitutes a garbled message": each is GARBLED (ignored, not counted), not rejected. */
    @Test
    void garbledMessagesAreToldApartFromInvalidOnes() {
        assertEquals(FixDecoder.GARBLED, decode(message("49=A|35=D|56=CHRONEX|34=3|52=20261122-10:31:07|")), "MsgType not third");
        assertEquals(35, decoder.rejectRefTag());
        final String good = message(HEADER);
        final String badSum = good.substring(0, good.length() - 4) + (good.charAt(good.length() - 2) == '9' ? "000" : "999") + "\u0001";
        assertEquals(FixDecoder.GARBLED, decode(badSum));
        assertEquals(10, decoder.rejectRefTag());
        final String badLength = good.replaceFirst("9=\\d+", "9=12");
        final UnsafeBuffer b = text(badLength);
        assertEquals(b.capacity(), FixDecoder.frame(b, 0, b.capacity(), 4096), "framed on the CheckSum field");
        assertEquals(FixDecoder.GARBLED, decoder.decode(b, 0, b.capacity()));
        assertEquals(9, decoder.rejectRefTag());
        final String noBodyLength = good.replaceFirst("9=\\d+\u0001", "");
        assertEquals(FixDecoder.GARBLED, decode(noBodyLength), "BodyLength not second");
        final String lateBodyLength = noBodyLength.replaceFirst("35=D\u0001", "35=D\u00019=50\u0001");
        assertEquals(FixDecoder.GARBLED, decode(lateBodyLength), "8, 9, 35 out of order");
        final String checkSumLetters = good.substring(0, good.length() - 4) + "1a2\u0001";
        assertEquals(FixDecoder.GARBLED, decode(checkSumLetters));
        final String fix42 = message(HEADER).replace("FIX.4.4", "FIX.4.2");
        final String fix42Summed = message(HEADER).replace("FIX.4.4", "FIX.4.2").substring(0, fix42.length() - 4)
            + String.format("%03d", sum(fix42.substring(0, fix42.length() - 7))) + "\u0001";
        assertEquals(FixDecoder.WRONG_BEGIN_STRING, decode(fix42Summed));
        assertEquals("ALICE", decoder.stringValue(FixTags.SENDER_COMP_ID), "read, for the Logout that answers it");
        assertEquals(FixDecoder.OK, decode(message("35=4|49=A|56=CHRONEX|52=20261122-10:31:07|36=9|")),
            "a SequenceReset in reset mode needs no MsgSeqNum: it is applied whatever that is");
        assertEquals(FixDecoder.OK, decode(message("35=4|49=A|56=CHRONEX|34=0|52=20261122-10:31:07|36=9|")));
        assertEquals(1, decode(message("35=4|49=A|56=CHRONEX|52=20261122-10:31:07|123=Y|36=9|")), "a gap fill does");
    }

    private static int sum(final String text) {
        int sum = 0;
        for (final char c : text.toCharArray()) {
            sum += c;
        }
        return sum & 0xFF;
    }

    @Test
    void framingWaitsForWholeMessagesAndFindsTheNextAfterGarbage() {
        final String one = message(HEADER + "11=X|");
        final UnsafeBuffer b = text(one + one);
        for (int i = 0; i < one.length(); i++) {
            assertEquals(0, FixDecoder.frame(b, 0, i, 4096), "incomplete at " + i);
        }
        assertEquals(one.length(), FixDecoder.frame(b, 0, one.length(), 4096));
        assertEquals(one.length(), FixDecoder.frame(b, one.length(), one.length(), 4096));
        assertEquals(FixDecoder.FRAME_GARBAGE, FixDecoder.frame(text("GET / HTTP/1.1"), 0, 14, 4096));
        assertEquals(0, FixDecoder.frame(text("8=FIX.4.2|9=5|"), 0, 14, 4096), "another version is framed, then answered");
        assertEquals(0, FixDecoder.frame(text("8=FIX.4.4|9=x|"), 0, 14, 4096), "framed on its CheckSum, then found garbled");
        assertEquals(FixDecoder.FRAME_GARBAGE, FixDecoder.frame(text("8=garbage|"), 0, 10, 4096),
            "garbage that begins 8= must not swallow the next message up to its CheckSum");
        final UnsafeBuffer junk = text("xx|8=FIX.4.4|");
        assertEquals(3, FixDecoder.garbageLength(junk, 0, junk.capacity()));
        assertEquals(3, FixDecoder.garbageLength(text("abc8=F"), 0, 6), "a message may start in the bytes still to come");
        assertEquals(4, FixDecoder.garbageLength(text("abcd"), 0, 4));
        assertEquals(FixDecoder.FRAME_TOO_LONG, FixDecoder.frame(text("8=FIX.4.4|9=99999|"), 0, 18, 4096));
        assertEquals(FixDecoder.FRAME_TOO_LONG, FixDecoder.frame(b, 0, b.capacity(), 40), "no CheckSum within the limit");
    }

    @Test
    void decodingAndEncodingAllocateNothing() {
        final UnsafeBuffer in = text(message(HEADER + "11=12345|55=ACME|54=1|38=100|40=2|44=100.25|60=20261122-10:31:07.123|"));
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long sink = 0;
        for (int round = 0; round < 2; round++) {
            final long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 200_000; i++) {
                final int length = FixDecoder.frame(in, 0, in.capacity(), 4096);
                decoder.decode(in, 0, length);
                sink += decoder.scaledDecimal(FixTags.PRICE, 2) + decoder.longValue(FixTags.CL_ORD_ID) + decoder.charValue(FixTags.SIDE)
                    + decoder.utcTimestampMillis(FixTags.TRANSACT_TIME);
                encoder.start(0, FixMsgTypes.EXECUTION_REPORT).addAscii(49, "CHRONEX").addLong(34, i).addUtcTimestamp(52, sink)
                    .addDecimal(44, 10025, 2).addBytes(11, in, decoder.valueOffset(11), decoder.valueLength(11));
                sink += encoder.finish();
            }
            final long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            if (round == 1) {
                assertTrue(allocated < 4096, "allocated " + allocated + " bytes over 200,000 decodes and encodes");
            }
        }
        assertTrue(sink != 0);
    }
}
