package io.chronex.queues;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * gateways/N/sessions: what the gateway writes is what a reader reads; a restart starts it again; a
 * missing, short, foreign, newer, older, truncated or damaged file is a clear problem, never an exception.
 */
class GatewaySessionsFileTest {
    @TempDir
    Path tmp;

    private Path file() {
        return tmp.resolve("sessions");
    }

    @Test
    void whatTheGatewayWritesIsWhatAReaderReads() {
        try (GatewaySessionsFile f = new GatewaySessionsFile(file(), 3, List.of("ALICE", "B".repeat(32)), "CHRONEX", 1_000)) {
            f.sequenceNumbers(0, 41, 17);
            f.loggedOn(0, 2_000);
            f.messageIn(0, 42);
            f.messageOut(0, 18);
            f.messageIn(0, 43);
            f.messageIn(0, 0); // a message without a readable MsgSeqNum: counted, the last number kept
            f.messageOut(0, 19);

            final GatewaySessionsFile.Snapshot s = GatewaySessionsFile.read(file());
            assertNull(s.problem());
            assertEquals(GatewaySessionsFile.VERSION, s.version());
            assertEquals(3, s.gatewayId());
            assertEquals(1_000, s.writtenEpochMillis());
            assertEquals(ProcessHandle.current().pid(), s.writerPid());
            assertEquals(1, s.loggedOn());
            assertEquals(new GatewaySessionsFile.Session("ALICE", "CHRONEX", true, 3, 2, 43, 19, 2_000, 0), s.sessions().get(0));
            assertEquals(new GatewaySessionsFile.Session("B".repeat(32), "CHRONEX", false, 0, 0, 0, 0, 0, 0), s.sessions().get(1));

            f.loggedOff(0, 3_000);
            final GatewaySessionsFile.Session after = GatewaySessionsFile.read(file()).sessions().get(0);
            assertFalse(after.loggedOn());
            assertEquals(2_000, after.lastLogonEpochMillis());
            assertEquals(3_000, after.lastLogoutEpochMillis());
            assertEquals(3, after.messagesIn());
            assertEquals(GatewaySessionsFile.MarketData.NONE, after.marketData());

            f.marketData(1, 2, true, 3, 4, 5);
            assertEquals(new GatewaySessionsFile.MarketData(2, true, 3, 4, 5),
                GatewaySessionsFile.read(file()).sessions().get(1).marketData());
            f.marketData(1, 0, false, 3, 6, 5);
            final GatewaySessionsFile.Session bob = GatewaySessionsFile.read(file()).sessions().get(1);
            assertEquals(new GatewaySessionsFile.MarketData(0, false, 3, 6, 5), bob.marketData());
            assertEquals("B".repeat(32), bob.senderCompId());
            assertEquals(GatewaySessionsFile.MarketData.NONE, GatewaySessionsFile.read(file()).sessions().get(0).marketData());
        }
        assertEquals(GatewaySessionsFile.HEADER_LENGTH + 2 * GatewaySessionsFile.SLOT_LENGTH, file().toFile().length());
    }

    @Test
    void aRestartedGatewayStartsTheFileAgainAndAReaderOfTheOldOneIsNotCutOff() {
        final GatewaySessionsFile first = new GatewaySessionsFile(file(), 1, List.of("ALICE", "BOB", "CAROL"), "CHRONEX", 1);
        first.loggedOn(1, 5);
        first.messageIn(1, 9);
        // Killed: never closed. The next start has one session fewer configured.
        try (GatewaySessionsFile second = new GatewaySessionsFile(file(), 1, List.of("ALICE", "BOB"), "CHRONEX", 2)) {
            final GatewaySessionsFile.Snapshot s = GatewaySessionsFile.read(file());
            assertNull(s.problem());
            assertEquals(2, s.writtenEpochMillis());
            assertEquals(2, s.sessions().size());
            assertEquals(0, s.loggedOn());
            assertEquals(0, s.sessions().get(1).messagesIn());
            // The old mapping still works (the new file was renamed over it, not written into it).
            first.messageIn(1, 10);
            second.loggedOn(1, 6);
            assertEquals(1, GatewaySessionsFile.read(file()).loggedOn());
            assertEquals(0, GatewaySessionsFile.read(file()).sessions().get(1).messagesIn());
        } finally {
            first.close();
        }
        assertFalse(Files.exists(tmp.resolve("sessions.new")));
    }

    @Test
    void badFilesAreAProblemNotAnException() throws IOException {
        assertNull(GatewaySessionsFile.read(file()), "no file: nothing to say");

        Files.write(file(), new byte[10]);
        assertProblem("shorter than its 64-byte header");

        Files.write(file(), "this is not a sessions file, but it is long enough to hold a header of 64 bytes....".getBytes());
        assertProblem("not a gateway sessions file");

        new GatewaySessionsFile(file(), 1, List.of("ALICE", "BOB"), "CHRONEX", 1).close();
        putInt(8, 2);
        final GatewaySessionsFile.Snapshot newer = assertProblem("version 2, this reader knows version 1 (written by a newer gateway)");
        assertEquals(2, newer.version());
        putInt(8, 0);
        assertProblem("version 0, this reader knows version 1");
        putInt(8, GatewaySessionsFile.VERSION);

        putInt(12, 3); // claims 3 slots, holds 2
        assertProblem("truncated: 448 bytes, its header needs 640 for 3 sessions");
        putInt(12, -1);
        assertProblem("header is damaged (-1 slots of 192 bytes)");
        putInt(12, 2);
        putInt(16, 12);
        assertProblem("header is damaged (2 slots of 12 bytes)");
        putInt(16, GatewaySessionsFile.SLOT_LENGTH);

        try (FileChannel ch = FileChannel.open(file(), StandardOpenOption.WRITE)) {
            ch.truncate(GatewaySessionsFile.HEADER_LENGTH + GatewaySessionsFile.SLOT_LENGTH + 5);
        }
        assertProblem("truncated");

        // Garbage in a slot's text and numbers: read as it is, unprintable bytes shown as '?'.
        new GatewaySessionsFile(file(), 1, List.of("ALICE"), "CHRONEX", 1).close();
        try (RandomAccessFile raf = new RandomAccessFile(file().toFile(), "rw")) {
            raf.seek(GatewaySessionsFile.HEADER_LENGTH + 64 + 1);
            raf.write(new byte[] {7, (byte) 0xE9});
            raf.seek(GatewaySessionsFile.HEADER_LENGTH);
            raf.write(new byte[] {1}); // the change count left odd, as by a gateway killed mid-change
        }
        final GatewaySessionsFile.Snapshot torn = GatewaySessionsFile.read(file());
        assertNull(torn.problem());
        assertEquals("A??CE", torn.sessions().get(0).senderCompId());
    }

    @Test
    void aLongerSlotOfALaterWriterIsReadForTheFieldsThisReaderKnows() throws IOException {
        // A later gateway that added fields at the end of each slot (slot length 256) without a new version.
        final int slotLength = 256;
        final ByteBuffer b = ByteBuffer.allocate(GatewaySessionsFile.HEADER_LENGTH + 2 * slotLength).order(ByteOrder.nativeOrder());
        b.putLong(0, GatewaySessionsFile.MAGIC).putInt(8, 1).putInt(12, 2).putInt(16, slotLength).putInt(20, 4);
        for (int i = 0; i < 2; i++) {
            final int at = GatewaySessionsFile.HEADER_LENGTH + i * slotLength;
            b.putInt(at + 8, 1).putLong(at + 16, 10 + i).putLong(at + 24, 20 + i);
            b.put(at + 64, (byte) ('X' + i));
            b.putLong(at + 128, 3 + i); // market-data subscriptions
            b.putLong(at + 200, -1L); // a field this reader does not know
        }
        Files.write(file(), b.array());
        final GatewaySessionsFile.Snapshot s = GatewaySessionsFile.read(file());
        assertNull(s.problem());
        assertEquals(4, s.gatewayId());
        assertEquals(2, s.loggedOn());
        assertEquals("Y", s.sessions().get(1).senderCompId());
        assertEquals(11, s.sessions().get(1).messagesIn());
        assertEquals(21, s.sessions().get(1).messagesOut());
        assertEquals(4, s.sessions().get(1).marketData().subscriptions());
    }

    @Test
    void aSlotOfAGatewayBeforeMarketDataReadsAsNoMarketData() throws IOException {
        // 128-byte slots, as gateways wrote them before market data; bytes after the file's end must not be read as fields.
        final int slotLength = 128;
        final ByteBuffer b = ByteBuffer.allocate(GatewaySessionsFile.HEADER_LENGTH + 2 * slotLength).order(ByteOrder.nativeOrder());
        b.putLong(0, GatewaySessionsFile.MAGIC).putInt(8, 1).putInt(12, 2).putInt(16, slotLength).putInt(20, 1);
        b.putInt(GatewaySessionsFile.HEADER_LENGTH + 8, 1).put(GatewaySessionsFile.HEADER_LENGTH + 64, (byte) 'A');
        // The second slot's first field lies where a 192-byte first slot would have its market data.
        b.putLong(GatewaySessionsFile.HEADER_LENGTH + slotLength + 16, 7);
        b.put(GatewaySessionsFile.HEADER_LENGTH + slotLength + 64, (byte) 'B');
        Files.write(file(), b.array());
        final GatewaySessionsFile.Snapshot s = GatewaySessionsFile.read(file());
        assertNull(s.problem());
        assertEquals(List.of("A", "B"), s.sessions().stream().map(GatewaySessionsFile.Session::senderCompId).toList());
        assertEquals(7, s.sessions().get(1).messagesIn());
        assertEquals(GatewaySessionsFile.MarketData.NONE, s.sessions().get(0).marketData());
        assertEquals(GatewaySessionsFile.MarketData.NONE, s.sessions().get(1).marketData());
    }

    private GatewaySessionsFile.Snapshot assertProblem(final String expected) {
        final GatewaySessionsFile.Snapshot s = GatewaySessionsFile.read(file());
        assertNotNull(s);
        assertNotNull(s.problem(), "a problem expected: " + expected);
        assertTrue(s.problem().contains(expected), s.problem());
        assertTrue(s.sessions().isEmpty());
        return s;
    }

    private void putInt(final int offset, final int value) throws IOException {
        try (FileChannel ch = FileChannel.open(file(), StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.allocate(4).order(ByteOrder.nativeOrder()).putInt(0, value), offset);
        }
    }
}
