package io.chronex.engine.process;

import io.chronex.queues.SnapshotStore;
import io.chronex.api.EngineConfig;
import io.chronex.api.SymbolSpec;
import io.chronex.engine.MatchingEngine;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.SnapshotEnvelope;
import io.chronex.queues.SnapshotFiles;
import net.openhft.chronicle.core.time.SetTimeProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static io.chronex.engine.process.EngineServiceTest.answeredIndices;
import static io.chronex.engine.process.EngineServiceTest.appendCommands;
import static io.chronex.engine.process.EngineServiceTest.drain;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Snapshots carry proof of what they are (issue 20): a file renamed, swapped in from another run's journal, sealed
 * under another configuration, truncated or zeroed is skipped with a warning naming it, and recovery then gives the
 * same results as a run that never stopped; a snapshot that cannot be written whole is an error and leaves no file.
 */
class SnapshotIntegrityTest {
    private static final EngineConfig CONFIG = EngineConfig.noRiskChecks(SymbolSpec.plain(1));
    private static final int COMMANDS = 3_000;
    /** Where the interrupted runs stop: after the snapshot at the 1,600th command, before the next at the 2,000th. */
    private static final int STOP = 1_700;

    @TempDir
    Path tmp;

    /** One fixed day for every journal, so that two journals number their commands alike (the index holds the day). */
    private DataDirectory open(final String name) {
        return DataDirectory.open(tmp.resolve(name)).withClock(new SetTimeProvider(Instant.parse("2026-11-20T10:00:00Z")));
    }

    /** The results of the journal of {@code seed} answered in one go, and the state hash at the end. */
    private record Clean(List<String> results, long hash) {
    }

    private Clean clean(final long seed) {
        final DataDirectory data = open("clean-" + seed);
        appendCommands(data, COMMANDS, seed);
        final long hash;
        try (EngineService service = new EngineService(data, CONFIG)) {
            drain(service, Long.MAX_VALUE);
            hash = service.stateHash();
        }
        final List<String> results = new ArrayList<>();
        answeredIndices(data, results);
        return new Clean(results, hash);
    }

    /** The journal of {@code seed}, answered up to {@link #STOP} with a snapshot every 400 commands; the journal's indices. */
    private List<Long> interrupted(final DataDirectory data, final long seed) {
        final List<Long> journal = appendCommands(data, COMMANDS, seed);
        try (EngineService service = new EngineService(data, CONFIG, 400, System.err::println)) {
            assertEquals(STOP, drain(service, STOP));
        }
        assertEquals(List.of(journal.get(1_599), journal.get(1_199), journal.get(799)), SnapshotFiles.indices(data.snapshots()));
        return journal;
    }

    /**
     * Restarts on {@code data}, expecting exactly the warnings matched by {@code warned} (one each) and a recovery from
     * {@code from} (null: the journal alone); answers the rest and checks every command answered once with the clean
     * run's results and state.
     */
    private void recoversAsClean(final DataDirectory data, final List<Long> journal, final Clean clean, final Path from,
                                 final String... warned) {
        final List<String> warnings = new ArrayList<>();
        try (EngineService service = new EngineService(data, CONFIG, 0, warnings::add)) {
            assertEquals(warned.length, warnings.size(), warnings.toString());
            for (int i = 0; i < warned.length; i++) {
                assertTrue(warnings.get(i).contains(warned[i]), warnings.get(i) + " should say " + warned[i]);
            }
            assertEquals(from, service.restoredSnapshot());
            drain(service, Long.MAX_VALUE);
            assertEquals(clean.hash(), service.stateHash(), "the same state as the run that never stopped");
        }
        final List<String> results = new ArrayList<>();
        assertEquals(journal, answeredIndices(data, results), "each command answered once, in order");
        assertEquals(clean.results(), results, "the same results as the run that never stopped");
    }

    private static Path file(final DataDirectory data, final long journalIndex) {
        return data.snapshots().resolve(SnapshotFiles.name(journalIndex));
    }

    @Test
    void aSnapshotRenamedToAnEarlierIndexIsSkippedAndNoCommandIsAppliedTwice() throws Exception {
        final Clean clean = clean(51);
        final DataDirectory data = open("d");
        final List<Long> journal = interrupted(data, 51);
        // The operator's case: the newest snapshot, after the 1,600th command, renamed to the 1,000th's name.
        Files.delete(file(data, journal.get(799)));
        Files.delete(file(data, journal.get(1_199)));
        final Path renamed = file(data, journal.get(999));
        Files.move(file(data, journal.get(1_599)), renamed);
        recoversAsClean(data, journal, clean, null, "skipping snapshot " + renamed + ": its name says journal index 0x"
            + Long.toHexString(journal.get(999)) + " but it holds the state after 0x" + Long.toHexString(journal.get(1_599)));
    }

    @Test
    void aSnapshotOfAnotherRunsJournalUnderTheSameNameIsSkipped() throws Exception {
        final Clean clean = clean(52);
        final DataDirectory data = open("d");
        final List<Long> journal = interrupted(data, 52);
        final DataDirectory other = open("other");
        assertEquals(journal, interrupted(other, 53), "both journals number their commands alike");
        final Path newest = file(data, journal.get(1_599));
        Files.copy(file(other, journal.get(1_599)), newest, StandardCopyOption.REPLACE_EXISTING);
        recoversAsClean(data, journal, clean, file(data, journal.get(1_199)),
            "skipping snapshot " + newest + ": the journal's command at 0x" + Long.toHexString(journal.get(1_599))
                + " is not the one it was taken after");
    }

    @Test
    void aSnapshotTakenUnderAnotherConfigurationIsSkipped() throws Exception {
        final Clean clean = clean(54);
        final DataDirectory data = open("d");
        final List<Long> journal = interrupted(data, 54);
        final Path newest = file(data, journal.get(1_599));
        final byte[] bytes = Files.readAllBytes(newest);
        final SnapshotEnvelope.Header header = SnapshotEnvelope.open(bytes);
        final long otherHash = MatchingEngine.configHash(EngineConfig.noRiskChecks(SymbolSpec.plain(1), SymbolSpec.plain(2)));
        Files.write(newest, SnapshotEnvelope.wrap(header.journalIndex(), otherHash, header.commandFingerprint(),
            Arrays.copyOfRange(bytes, SnapshotEnvelope.HEADER_BYTES, bytes.length)));
        recoversAsClean(data, journal, clean, file(data, journal.get(1_199)),
            "skipping snapshot " + newest + ": it was taken under configuration hash " + Long.toHexString(otherHash));
    }

    @Test
    void truncatedZeroedAndOldFormatSnapshotsAreSkipped() throws Exception {
        final Clean clean = clean(55);
        final DataDirectory data = open("d");
        final List<Long> journal = interrupted(data, 55);
        final Path newest = file(data, journal.get(1_599));
        final Path middle = file(data, journal.get(1_199));
        final Path oldest = file(data, journal.get(799));
        // What the full disk left: the first 4,096 bytes of the file; then a file of zeros; then the engine's bytes alone.
        Files.write(newest, Arrays.copyOf(Files.readAllBytes(newest), 4_096));
        Files.write(middle, new byte[(int) Files.size(middle)]);
        final byte[] old = Files.readAllBytes(oldest);
        Files.write(oldest, Arrays.copyOfRange(old, SnapshotEnvelope.HEADER_BYTES, old.length));
        recoversAsClean(data, journal, clean, null,
            "skipping snapshot " + newest + ": 4096 bytes where its header says",
            "skipping snapshot " + middle + ": no snapshot header",
            "skipping snapshot " + oldest + ": no snapshot header (magic 43485845534e4150)");
    }

    /** A store whose writes take what {@code writes} lets them, and the engine on it; errors go to {@code errors}. */
    private static EngineService service(final DataDirectory data, final SnapshotStore.Writes writes, final List<String> errors) {
        return new EngineService(data, CONFIG, 0, 0, System.err::println, message -> { }, errors::add,
            new SnapshotStore(data.snapshots(), writes));
    }

    /** The snapshot directory's files other than config.hash. */
    private static List<String> snapshotFiles(final DataDirectory data) throws IOException {
        try (Stream<Path> files = Files.list(data.snapshots())) {
            return files.map(f -> f.getFileName().toString())
                .filter(n -> !n.equals(SnapshotFiles.CONFIG_HASH) && !n.equals(io.chronex.queues.ConfigRecordIndex.FILE)).sorted().toList();
        }
    }

    @Test
    void shortWritesAreWrittenWhole() throws Exception {
        final DataDirectory data = open("d");
        final List<Long> journal = appendCommands(data, 2_000, 56);
        final List<String> errors = new ArrayList<>();
        final long hash;
        // At most 1,000 bytes a call, as a file system may: a single call would leave a truncated file.
        try (EngineService service = service(data, (channel, buffers) -> {
            final ByteBuffer buffer = buffers[0].hasRemaining() ? buffers[0] : buffers[1];
            final ByteBuffer part = buffer.slice().limit(Math.min(1_000, buffer.remaining()));
            final int written = channel.write(part);
            buffer.position(buffer.position() + written);
            return written;
        }, errors)) {
            drain(service, Long.MAX_VALUE);
            assertEquals(file(data, journal.get(1_999)), service.snapshot());
            hash = service.stateHash();
        }
        assertEquals(List.of(), errors);
        assertTrue(Files.size(file(data, journal.get(1_999))) > 10_000, "a snapshot of many writes");
        try (EngineService service = new EngineService(data, CONFIG, 0, message -> errors.add("warning: " + message))) {
            assertEquals(file(data, journal.get(1_999)), service.restoredSnapshot());
            assertEquals(hash, service.stateHash());
        }
        assertEquals(List.of(), errors);
    }

    @Test
    void aWriteThatFailsPartWayIsAnErrorAndLeavesNoFile() throws Exception {
        final DataDirectory data = open("d");
        final List<Long> journal = appendCommands(data, 2_000, 57);
        final List<String> errors = new ArrayList<>();
        // 4,096 bytes land, then the disk is full: the operator's case.
        final SnapshotStore.Writes full = (channel, buffers) -> {
            if (channel.position() >= 4_096) {
                throw new IOException("No space left on device");
            }
            final ByteBuffer buffer = buffers[0].hasRemaining() ? buffers[0] : buffers[1];
            final ByteBuffer part = buffer.slice().limit((int) Math.min(4_096 - channel.position(), buffer.remaining()));
            final int written = channel.write(part);
            buffer.position(buffer.position() + written);
            return written;
        };
        try (EngineService service = service(data, full, errors)) {
            assertEquals(1_000, drain(service, 1_000));
            // The final snapshot at stop: an exception for the caller (EngineAgent logs it as a failure), no file.
            final UncheckedIOException e = assertThrows(UncheckedIOException.class, service::snapshot);
            assertTrue(e.getMessage().contains("cannot write snapshot " + file(data, journal.get(999)))
                && e.getMessage().contains("No space left on device"), e.getMessage());
            assertEquals(List.of(), snapshotFiles(data));
            assertEquals(0, service.snapshotsWritten());
        }
        // Lost bytes: every call says it wrote everything, but what lands after the first 4,096 bytes is zeros.
        final SnapshotStore.Writes lying = (channel, buffers) -> {
            long claimed = 0;
            for (final ByteBuffer buffer : buffers) {
                final byte[] bytes = new byte[buffer.remaining()];
                buffer.get(bytes);
                for (int i = 0; i < bytes.length; i++) {
                    if (channel.position() + i >= 4_096) {
                        bytes[i] = 0;
                    }
                }
                claimed += channel.write(ByteBuffer.wrap(bytes));
            }
            return claimed;
        };
        try (EngineService service = new EngineService(data, CONFIG, 500, 0, System.err::println, message -> { }, errors::add,
            new SnapshotStore(data.snapshots(), lying))) {
            assertEquals(1_000, drain(service, Long.MAX_VALUE), "every command answered, those after the failed snapshots too");
            assertEquals(0, service.snapshotsWritten());
        }
        assertEquals(2, errors.size(), errors.toString());
        for (final String error : errors) {
            assertTrue(error.contains("cannot write snapshot") && error.contains("read back, its body's checksum does not match")
                && error.contains("the engine goes on"), error);
        }
        assertEquals(List.of(), snapshotFiles(data));
        try (EngineService service = new EngineService(data, CONFIG, 0, errors::add)) {
            assertNull(service.restoredSnapshot());
            assertEquals(2_000, service.replayedCommands());
        }
        assertEquals(2, errors.size(), "no warning at restart: nothing was left behind");
    }

    /**
     * The operator's full disk, for real: a 256 KiB tmpfs mounted on the snapshots directory and filled to 8 KiB short
     * of full. The engine's stop (EngineAgent, as bin/engine runs it) logs the final snapshot as FAILED, never written,
     * and leaves no snapshot file; the next start replays the journal. Needs root (tests run as root): fails, never skips,
     * where a tmpfs cannot be mounted.
     */
    @Test
    void onAFullDiskTheFinalSnapshotIsLoggedAsFailedAndLeavesNoFile() throws Exception {
        final DataDirectory data = open("d");
        appendCommands(data, 2_000, 58);
        final Path dir = Files.createDirectories(data.snapshots());
        mountTmpfs(dir);
        try {
            final Path runDir = tmp.resolve("run");
            final io.chronex.runtime.RunFiles log = io.chronex.runtime.RunFiles.start(runDir, "engine");
            try {
                // No storage reserve: the write itself must meet the full disk (a reserve would refuse it before).
                final EngineAgent agent = EngineAgent.open(data, CONFIG, false, 0, 0, 0, "backoff", -1, log);
                for (long polls = 0; agent.doWork() > 0 || polls < 10; polls++) {
                    assertTrue(polls < 10_000_000, "the engine stopped answering");
                }
                final Path filler = dir.resolve("filler");
                Files.write(filler, new byte[(int) (Files.getFileStore(dir).getUsableSpace() - 8_192)]);
                agent.onClose();
                assertEquals(List.of("filler"), snapshotFiles(data), "no snapshot and no temporary file left");
                Files.delete(filler);
            } finally {
                log.stop();
            }
            final String logged = Files.readString(runDir.resolve("engine.log"));
            assertTrue(logged.contains("error: the final snapshot FAILED: cannot write snapshot ")
                && logged.contains("No space left on device"), logged);
            assertTrue(logged.contains("engine stopping: 2000 commands answered") && logged.contains("final snapshot FAILED"), logged);
            assertTrue(!logged.contains(" written in "), logged);
            final List<String> warnings = new ArrayList<>();
            try (EngineService service = new EngineService(data, CONFIG, 0, warnings::add)) {
                assertNull(service.restoredSnapshot());
                assertEquals(2_000, service.replayedCommands());
                assertEquals(List.of(), warnings);
            }
        } finally {
            unmount(dir);
        }
    }

    private static void mountTmpfs(final Path dir) throws Exception {
        final String said = run("mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", dir.toString());
        if (said != null) {
            org.junit.jupiter.api.Assertions.fail("cannot mount a 256 KiB tmpfs on " + dir + " (this test needs root and mount(8),"
                + " as the tests run in CI): " + said);
        }
    }

    private static void unmount(final Path dir) throws Exception {
        final String said = run("umount", dir.toString());
        if (said != null && run("umount", "-l", dir.toString()) != null) {
            throw new IllegalStateException("cannot unmount the tmpfs on " + dir + ": " + said);
        }
    }

    /** Runs a command; null when it exits 0, else what it printed. */
    private static String run(final String... command) throws Exception {
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        return process.waitFor() == 0 ? null : "exit " + process.exitValue() + ": " + output.trim();
    }
}
