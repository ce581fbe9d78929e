package io.chronex.gateway;

import io.chronex.gateway.fix.FixDecoder;
import io.chronex.gateway.fix.FixEncoder;
import io.chronex.gateway.fix.FixMsgTypes;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The routes file: numbering, lookups, the header fields written, and what opening does with what a crash or damage left. */
class RoutesTest {
    @TempDir
    Path tmp;

    /** The route of "comp/sub/location" (empty parts: absent). */
    private static int id(final Routes routes, final String route) {
        final String[] parts = route.split("/", -1);
        final byte[] bytes = String.join("", parts).getBytes(StandardCharsets.US_ASCII);
        final UnsafeBuffer b = new UnsafeBuffer(bytes);
        final int sub = parts[0].length();
        final int location = sub + parts[1].length();
        return routes.id(b, 0, parts[0].length(), sub, parts[1].length(), location, parts[2].length());
    }

    @Test
    void eachDistinctRouteGetsTheNextNumberOnceAndKeepsItAcrossReopening() {
        final Path file = tmp.resolve("routes");
        try (Routes routes = new Routes(file)) {
            assertEquals(0, routes.count());
            assertEquals(1, id(routes, "DESK1/TRADER7/LDN"));
            assertEquals(2, id(routes, "DESK1//"));
            assertEquals(3, id(routes, "DESK1/TRADER7/"));
            assertEquals(4, id(routes, "DESK1//TRADER7"), "a value in another field is another route");
            assertEquals(1, id(routes, "DESK1/TRADER7/LDN"));
            assertEquals(2, id(routes, "DESK1//"));
            assertEquals(4, routes.count());
        }
        try (Routes routes = new Routes(file)) {
            assertEquals(4, routes.count());
            assertEquals(0, routes.cutOff);
            assertEquals(3, id(routes, "DESK1/TRADER7/"));
            assertEquals("DESK1//TRADER7", routes.describe(4));
            assertEquals(5, id(routes, "DESK2//"));
        }
    }

    @Test
    void manyRoutesGrowTheIndexAndTheLimitIsKept() {
        final Path file = tmp.resolve("routes");
        try (Routes routes = new Routes(file)) {
            for (int i = 1; i <= Routes.MAX_ROUTES; i++) {
                assertEquals(i, id(routes, "D" + i + "/T/" + (i % 7 == 0 ? "" : "L" + i % 3)));
            }
            assertEquals(Routes.FULL, id(routes, "ONE-TOO-MANY//"));
            assertEquals(778, id(routes, "D778/T/L1"), "known routes are still found");
        }
        try (Routes routes = new Routes(file)) {
            assertEquals(Routes.MAX_ROUTES, routes.count());
            assertEquals(Routes.MAX_ROUTES, id(routes, "D" + Routes.MAX_ROUTES + "/T/L" + Routes.MAX_ROUTES % 3));
        }
    }

    @Test
    void theRouteGoesIntoAHeaderAsDeliverToFieldsWithAbsentOnesLeftOut() {
        try (Routes routes = new Routes(tmp.resolve("routes"))) {
            final int full = id(routes, "DESK1/TRADER7/LDN");
            final int compOnly = id(routes, "DESK1//");
            final int withLocation = id(routes, "DESK1//LDN");
            assertEquals("128=DESK1|129=TRADER7|145=LDN|", written(routes, full));
            assertEquals("128=DESK1|", written(routes, compOnly));
            assertEquals("128=DESK1|145=LDN|", written(routes, withLocation));
        }
    }

    private static String written(final Routes routes, final int route) {
        final UnsafeBuffer out = new UnsafeBuffer(new byte[512]);
        final FixEncoder e = new FixEncoder(out).start(0, FixMsgTypes.HEARTBEAT);
        routes.write(e, route);
        final int length = e.finish();
        final String message = out.getStringWithoutLengthAscii(e.messageOffset(), length).replace('\u0001', '|');
        final int from = message.indexOf("|35=0|") + "|35=0|".length();
        return message.substring(from, message.indexOf("10="));
    }

    @Test
    void aRouteIsTakenFromADecodedMessage() {
        final byte[] message = FixText.whole("35=D\u000149=ALICE\u000156=CHRONEX\u000134=2\u000152=20261122-10:00:00.000\u0001"
            + "115=DESK1\u0001144=LDN\u000111=A\u0001");
        final FixDecoder m = new FixDecoder();
        assertEquals(FixDecoder.OK, m.decode(new UnsafeBuffer(message), 0, message.length));
        try (Routes routes = new Routes(tmp.resolve("routes"))) {
            assertEquals(1, routes.id(m));
            assertEquals(1, id(routes, "DESK1//LDN"));
        }
    }

    /** A kill -9 inside the write of a new route's record leaves a prefix of it: cut off, and the number is given again. */
    @Test
    void aLastRecordCutShortIsCutOffAndItsNumberGivenAgain() throws Exception {
        final Path file = tmp.resolve("routes");
        try (Routes routes = new Routes(file)) {
            id(routes, "DESK1//");
            id(routes, "DESK2/TRADER7/LDN");
        }
        final long whole = Files.size(file);
        for (final long cut : new long[] {whole - 1, whole - 10, whole - 20}) {
            final Path copy = tmp.resolve("routes-" + cut);
            Files.write(copy, java.util.Arrays.copyOf(Files.readAllBytes(file), (int) cut));
            try (Routes routes = new Routes(copy)) {
                assertEquals(1, routes.count(), "cut at " + cut);
                assertEquals(cut - (whole - 26), routes.cutOff);
                assertEquals(2, id(routes, "DESK3//"), "the next route takes the number the torn one never had");
            }
            try (Routes routes = new Routes(copy)) {
                assertEquals(0, routes.cutOff);
                assertEquals("DESK3//", routes.describe(2));
            }
        }
    }

    @Test
    void aTailOfZerosOrALastRecordWhoseCrcFailsIsCutOff() throws Exception {
        final Path file = tmp.resolve("routes");
        try (Routes routes = new Routes(file)) {
            id(routes, "DESK1//");
            id(routes, "DESK2//");
        }
        final byte[] bytes = Files.readAllBytes(file);
        final Path zeros = tmp.resolve("zeros");
        Files.write(zeros, java.util.Arrays.copyOf(bytes, bytes.length + 300));
        try (Routes routes = new Routes(zeros)) {
            assertEquals(2, routes.count());
            assertEquals(300, routes.cutOff);
        }
        final Path crc = tmp.resolve("crc");
        final byte[] changed = bytes.clone();
        changed[changed.length - 1] ^= 1;
        Files.write(crc, changed);
        try (Routes routes = new Routes(crc)) {
            assertEquals(1, routes.count());
            assertEquals(16, routes.cutOff, "the last record, 8 bytes of header and 8 of body");
        }
    }

    @Test
    void aRecordThatDoesNotCheckWithRecordsAfterItIsRefused() throws Exception {
        final Path file = tmp.resolve("routes");
        try (Routes routes = new Routes(file)) {
            id(routes, "DESK1//");
            id(routes, "DESK2//");
        }
        final byte[] bytes = Files.readAllBytes(file);
        final byte[] crc = bytes.clone();
        crc[8 + 8 + 1] = 'X';
        Files.write(file, crc);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> new Routes(file).close());
        assertTrue(e.getMessage().contains("is damaged: it has a record at byte 8 whose CRC fails"), e.getMessage());
        final byte[] length = bytes.clone();
        length[8] = 0;
        Files.write(file, length);
        e = assertThrows(IllegalStateException.class, () -> new Routes(file).close());
        assertTrue(e.getMessage().contains("with a body of 0 bytes"), e.getMessage());
        assertEquals(bytes.length, Files.size(file), "a refused file is left as it was");
    }

    @Test
    void aForeignFileIsRefusedAndACreatedOneIsNeverHalfMade() throws Exception {
        final Path file = tmp.resolve("routes");
        Files.write(file, new byte[64]);
        final IllegalStateException e = assertThrows(IllegalStateException.class, () -> new Routes(file).close());
        assertTrue(e.getMessage().contains("is not a routes file"), e.getMessage());
        final Path fresh = tmp.resolve("fresh");
        new Routes(fresh).close();
        assertEquals(8, Files.size(fresh));
        assertTrue(Files.notExists(tmp.resolve("fresh.tmp")));
        try (FileChannel c = FileChannel.open(fresh, StandardOpenOption.READ)) {
            final ByteBuffer magic = ByteBuffer.allocate(8);
            c.read(magic);
            assertEquals("CXROUTE1", new String(magic.array(), StandardCharsets.US_ASCII));
        }
    }
}
