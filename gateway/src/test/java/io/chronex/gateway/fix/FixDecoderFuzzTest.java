package io.chronex.gateway.fix;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * 1,000,000 randomly mutated valid messages (byte flips, insertions, deletions, truncations, SOH
 * injected, digits of BodyLength and CheckSum changed) through frame, decode and every accessor.
 * Nothing may throw, frame never claims more bytes than it has, and whenever decode says OK the
 * message really has a right BodyLength and CheckSum, recomputed here independently. Seeded: a
 * failure names its case and reproduces.
 */
class FixDecoderFuzzTest {
    private static final int CASES = 1_000_000;
    private static final String[] SEEDS = {
        "35=D|49=ALICE|56=CHRONEX|34=7|52=20261122-10:31:07.123|11=12345|55=ACME|54=1|38=100|40=2|44=100.25|59=0|60=20261122-10:31:07.123|",
        "35=F|49=BOB|56=CHRONEX|34=99|52=20261122-10:31:07|41=A1|11=A2|54=2|55=GLOBEX|60=20261122-10:31:07|",
        "35=A|49=LOAD1|56=CHRONEX|34=1|52=20261122-10:31:07.000|98=0|108=30|141=Y|554=secret|",
        "35=2|49=ALICE|56=CHRONEX|34=3|52=20261122-10:31:07.000|7=1|16=0|",
        "35=G|49=ALICE|56=CHRONEX|34=12|52=20261122-10:31:07.000|41=A2|11=A3|54=1|55=ACME|38=7|40=2|44=99.6|60=20261122-10:31:07|",
    };

    @Test
    void mutatedMessagesNeverThrowAndOkMeansValid() {
        final SplittableRandom random = new SplittableRandom(20261122);
        final FixDecoder decoder = new FixDecoder();
        final byte[][] seeds = new byte[SEEDS.length][];
        for (int i = 0; i < SEEDS.length; i++) {
            seeds[i] = FixCodecTest.message(SEEDS[i]).getBytes(StandardCharsets.ISO_8859_1);
        }
        final byte[] work = new byte[2048];
        final UnsafeBuffer buffer = new UnsafeBuffer(work);
        int ok = 0;
        int framed = 0;
        for (int n = 0; n < CASES; n++) {
            final byte[] seed = seeds[random.nextInt(seeds.length)];
            final int length = mutate(random, seed, work);
            try {
                int offset = 0;
                while (offset < length) {
                    final int frame = FixDecoder.frame(buffer, offset, length - offset, 1024);
                    if (frame <= 0) {
                        break;
                    }
                    assertTrue(frame <= length - offset, "case " + n + ": frame claims more bytes than there are");
                    framed++;
                    final int status = decoder.decode(buffer, offset, frame);
                    touchEverything(decoder);
                    if (status == FixDecoder.OK) {
                        ok++;
                        assertTrue(reallyValid(work, offset, frame), "case " + n + ": decode said OK to " + show(work, offset, frame));
                    }
                    offset += frame;
                }
            } catch (final RuntimeException e) {
                throw new AssertionError("case " + n + " threw on " + show(work, 0, length), e);
            }
        }
        // The mutations are meant to hit both sides: some still valid, most not.
        assertTrue(ok > CASES / 50 && ok < CASES - CASES / 10, "valid after mutation: " + ok + " of " + framed + " framed");
    }

    private static int mutate(final SplittableRandom random, final byte[] seed, final byte[] out) {
        System.arraycopy(seed, 0, out, 0, seed.length);
        int length = seed.length;
        final int mutations = random.nextInt(4);
        for (int m = 0; m < mutations && length > 1; m++) {
            final int at = random.nextInt(length);
            switch (random.nextInt(8)) {
                case 0 -> out[at] = (byte) random.nextInt(256);
                case 1 -> out[at] = 1;
                case 2 -> {
                    if (length < out.length - 1) {
                        System.arraycopy(out, at, out, at + 1, length - at);
                        out[at] = (byte) random.nextInt(256);
                        length++;
                    }
                }
                case 3 -> {
                    System.arraycopy(out, at + 1, out, at, length - at - 1);
                    length--;
                }
                case 4 -> length = at + 1;
                case 5 -> out[Math.min(length - 1, 12 + random.nextInt(2))] = (byte) ('0' + random.nextInt(10));
                case 6 -> out[Math.max(0, length - 2 - random.nextInt(3))] = (byte) ('0' + random.nextInt(10));
                default -> out[at] = (byte) ('0' + random.nextInt(10));
            }
        }
        return length;
    }

    private static void touchEverything(final FixDecoder d) {
        d.msgType();
        d.msgSeqNum();
        d.rejectRefTag();
        d.rejectText().length();
        for (int i = 0; i < d.fieldCount(); i++) {
            final int tag = d.tagAt(i);
            d.has(tag);
            d.longValue(tag);
            d.charValue(tag);
            d.booleanValue(tag);
            d.scaledDecimal(tag, 2);
            d.scaledDecimal(tag, 0);
            d.utcTimestampMillis(tag);
            d.valueEquals(tag, new byte[] {'A'});
            d.stringValue(tag);
        }
    }

    /** BodyLength and CheckSum recomputed from the text, with no code shared with the decoder. */
    private static boolean reallyValid(final byte[] b, final int offset, final int length) {
        final String s = new String(b, offset, length, StandardCharsets.ISO_8859_1);
        if (!s.startsWith("8=FIX.4.4\u00019=") || !s.endsWith("\u0001")) {
            return false;
        }
        final int bodyStart = s.indexOf('\u0001', 10) + 1;
        final int checksumAt = s.lastIndexOf("10=", s.length() - 2);
        if (checksumAt < bodyStart || s.charAt(checksumAt - 1) != '\u0001') {
            return false;
        }
        final int declared = Integer.parseInt(s.substring(12, bodyStart - 1));
        int sum = 0;
        for (int i = 0; i < checksumAt; i++) {
            sum += s.charAt(i);
        }
        return declared == checksumAt - bodyStart && String.format("%03d", sum & 0xFF).equals(s.substring(checksumAt + 3, s.length() - 1))
            && s.contains("\u000135=") && s.contains("\u000134=") && s.contains("\u000149=") && s.contains("\u000156=");
    }

    private static String show(final byte[] b, final int offset, final int length) {
        return new String(b, offset, length, StandardCharsets.ISO_8859_1).replace('\u0001', '|');
    }
}
