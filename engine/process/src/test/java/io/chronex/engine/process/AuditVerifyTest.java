package io.chronex.engine.process;

import io.chronex.api.Command;
import io.chronex.api.Result;
import io.chronex.engine.MatchingEngine;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.DecodeStatus;
import io.chronex.queues.EngineConfigFile;
import io.chronex.queues.Hops;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.EventCodec;
import io.chronex.queues.EventHeader;
import io.chronex.queues.SnapshotFiles;
import io.chronex.replay.audit.Audit;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * bin/audit verify (replay module; tested here, where the engine service that writes the journals
 * under audit is) on a journal the real engine service answered (a random stream of orders,
 * cancels and replaces in two symbols, with one malformed excerpt): every result equal; one
 * recorded result altered: the difference named at its journal index; another configuration:
 * refused.
 */
class AuditVerifyTest {
    private static final int COMMANDS = 3_000;
    private static final Path CONFIG = AuditJournals.CONFIG;

    @TempDir
    Path tmp;

    /** A journal of a seeded random stream, answered by EngineService as bin/engine would; returns its directory. */
    private Path answeredJournal() throws Exception {
        final Path dir = tmp.resolve("data");
        AuditJournals.answer(AuditJournals.write(DataDirectory.open(dir), COMMANDS, 7));
        return dir;
    }

    private record Run(int exit, String output) {
    }

    private static Run audit(final String... argv) {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final int exit;
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            exit = Audit.exitCode(argv, out);
        }
        return new Run(exit, bytes.toString(StandardCharsets.UTF_8));
    }

    @Test
    void theEnginesJournalVerifiesAndAnAlteredResultIsNamed() throws Exception {
        final Path dir = answeredJournal();
        final Run clean = audit("verify", "--data-dir", dir.toString(), "--config", CONFIG.toString());
        assertEquals(0, clean.exit(), clean.output());
        assertTrue(clean.output().contains("RESULT verified=" + (COMMANDS + 1) + " mismatches=0 first_mismatch_index=- unanswered=0"),
            clean.output());

        final Path altered = tmp.resolve("altered");
        copy(dir, altered);
        final long index = alterResult(DataDirectory.open(altered), 2_000);
        final Run run = audit("verify", "--data-dir", altered.toString(), "--config", CONFIG.toString());
        assertEquals(1, run.exit(), run.output());
        assertTrue(run.output().contains("MISMATCH at journal index 0x" + Long.toHexString(index)), run.output());
        assertTrue(run.output().contains("RESULT verified=1999 mismatches=1 first_mismatch_index=0x" + Long.toHexString(index)
            + " unanswered=-"), run.output());
        assertTrue(run.output().matches("(?s).*differs: +affected=\\d+ -> affected=\\d+.*"), run.output());
    }

    @Test
    void snapshotsAreCheckpointsAndFromStartsAtTheOneBeforeIt() throws Exception {
        final Path dir = tmp.resolve("data");
        final DataDirectory data = AuditJournals.write(DataDirectory.open(dir), COMMANDS, 7);
        // Snapshots after the 1,000th, 2,000th and last (3,001st) excerpts: three checkpoints.
        AuditJournals.answer(data, 1_000, true);
        AuditJournals.answer(data, 1_000, true);
        AuditJournals.answer(data, Long.MAX_VALUE, true);
        final long at1000 = AuditJournals.journalIndex(data, 1_000);
        final long at2000 = AuditJournals.journalIndex(data, 2_000);
        final Run all = audit("verify", "--data-dir", dir.toString(), "--config", CONFIG.toString());
        assertEquals(0, all.exit(), all.output());
        assertTrue(all.output().contains("unanswered=0 checkpoints_equal=3"), all.output());

        // From the 1,500th command: the snapshot after the 1,000th, 499 commands applied, 1,502 compared, 2 checkpoints past it.
        final Run from = audit("verify", "--data-dir", dir.toString(), "--config", CONFIG.toString(), "--from",
            "0x" + Long.toHexString(AuditJournals.journalIndex(data, 1_500)));
        assertEquals(0, from.exit(), from.output());
        assertTrue(from.output().contains("starting from " + SnapshotFiles.name(at1000)), from.output());
        assertTrue(from.output().contains("RESULT verified=1502 mismatches=0 first_mismatch_index=- unanswered=0 checkpoints_equal=2"),
            from.output());

        // A result altered after the second checkpoint: the divergence is placed after it.
        final Path altered = tmp.resolve("altered");
        copy(dir, altered);
        final long index = alterResult(DataDirectory.open(altered), 2_500);
        final Run late = audit("verify", "--data-dir", altered.toString(), "--config", CONFIG.toString());
        assertEquals(1, late.exit(), late.output());
        assertTrue(late.output().contains("the state was still equal after journal index 0x" + Long.toHexString(at2000)), late.output());
        assertTrue(late.output().contains("first_mismatch_index=0x" + Long.toHexString(index)), late.output());

        // The 2,000th's snapshot renamed to the 1,000th's: its header says what it is, so it is no checkpoint, and said.
        final Path renamed = tmp.resolve("renamed");
        copy(dir, renamed);
        Files.copy(renamed.resolve("snapshots").resolve(SnapshotFiles.name(at2000)),
            renamed.resolve("snapshots").resolve(SnapshotFiles.name(at1000)), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        final Run named = audit("verify", "--data-dir", renamed.toString(), "--config", CONFIG.toString());
        assertEquals(0, named.exit(), named.output());
        assertTrue(named.output().contains("note: checkpoint " + renamed.resolve("snapshots").resolve(SnapshotFiles.name(at1000))
            + " not compared: its name says journal index 0x" + Long.toHexString(at1000)), named.output());
        assertTrue(named.output().contains("checkpoints_equal=2"), named.output());

        // A checkpoint whose header is right but whose state is another (the 2,000th's, sealed as the 1,000th's): named,
        // though every result is equal.
        final Path swapped = tmp.resolve("swapped");
        copy(dir, swapped);
        forge(swapped.resolve("snapshots").resolve(SnapshotFiles.name(at2000)),
            swapped.resolve("snapshots").resolve(SnapshotFiles.name(at1000)));
        final Run state = audit("verify", "--data-dir", swapped.toString(), "--config", CONFIG.toString());
        assertEquals(1, state.exit(), state.output());
        assertTrue(state.output().contains("MISMATCH: the state after journal index 0x" + Long.toHexString(at1000) + " differs"),
            state.output());
        assertTrue(state.output().contains("RESULT verified=1000 mismatches=1"), state.output());
    }

    @Test
    void checkpointsInTheResultsAreTheEnginesStateAndVerifyComparesAndPlacesThem() throws Exception {
        // The same journal answered twice: straight through, and by an engine restarted after 1,200 commands.
        final Path dir = tmp.resolve("data");
        final DataDirectory data = AuditJournals.write(DataDirectory.open(dir), COMMANDS, 7);
        AuditJournals.answer(data, 1_200, false, 500);
        AuditJournals.answer(data, Long.MAX_VALUE, false, 500);
        final DataDirectory straight = AuditJournals.write(DataDirectory.open(tmp.resolve("straight")), COMMANDS, 7);
        AuditJournals.answer(straight, Long.MAX_VALUE, false, 500);

        // 3,000 commands applied (the malformed excerpt is not one): a checkpoint after every 500th, in the same places
        // after the restart, each the state hash of an engine core fed the journal up to there.
        final List<long[]> checkpoints = checkpoints(data);
        assertEquals(6, checkpoints.size(), "checkpoints " + checkpoints.size());
        assertEquals(describe(checkpoints(straight)), describe(checkpoints));
        final MatchingEngine core = new MatchingEngine(EngineConfigFile.load(CONFIG));
        int next = 0;
        try (SingleChronicleQueue commands = data.commands()) {
            final ExcerptTailer tailer = commands.createTailer();
            final Command command = new Command();
            final Result result = new Result();
            while (next < checkpoints.size()) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    assertTrue(dc.isPresent());
                    if (CommandCodec.read(dc.wire().bytes(), command, new Hops()) == DecodeStatus.OK) {
                        core.apply(command, result);
                    }
                    if (dc.index() == checkpoints.get(next)[0]) {
                        assertEquals(500L * (next + 1), core.commandCount());
                        assertEquals(core.stateHash(), checkpoints.get(next)[1], "checkpoint " + next);
                        next++;
                    }
                }
            }
        }

        final Run clean = audit("verify", "--data-dir", dir.toString(), "--config", CONFIG.toString());
        assertEquals(0, clean.exit(), clean.output());
        assertTrue(clean.output().contains("unanswered=0 checkpoints_equal=6"), clean.output());

        // A result altered between the fourth and fifth checkpoints: placed after the fourth.
        final Path altered = tmp.resolve("altered");
        copy(dir, altered);
        final long index = alterResult(DataDirectory.open(altered), 2_200);
        assertTrue(index > checkpoints.get(3)[0] && index < checkpoints.get(4)[0]);
        final Run late = audit("verify", "--data-dir", altered.toString(), "--config", CONFIG.toString());
        assertEquals(1, late.exit(), late.output());
        assertTrue(late.output().contains("checkpoints: 4 equal; the state was still equal after journal index 0x"
            + Long.toHexString(checkpoints.get(3)[0]) + " (the state hash in its result)"), late.output());
        assertTrue(late.output().contains("first_mismatch_index=0x" + Long.toHexString(index)), late.output());

        // A recorded hash changed (the third checkpoint's): named, though every result up to it is equal.
        final Path hashed = tmp.resolve("hashed");
        copy(dir, hashed);
        flipStateHash(DataDirectory.open(hashed), checkpoints.get(2)[0]);
        final Run state = audit("verify", "--data-dir", hashed.toString(), "--config", CONFIG.toString());
        assertEquals(1, state.exit(), state.output());
        assertTrue(state.output().contains("MISMATCH: the state after journal index 0x" + Long.toHexString(checkpoints.get(2)[0])
            + " differs from the state hash the engine recorded in its result"), state.output());
        assertTrue(state.output().contains("mismatches=1 first_mismatch_index=0x" + Long.toHexString(checkpoints.get(2)[0])),
            state.output());
        assertTrue(state.output().contains("checkpoints: 2 equal"), state.output());
    }

    @Test
    void partsCutAtSnapshotsOnTwoThreadsFindWhatOnePassFinds() throws Exception {
        final Path dir = tmp.resolve("data");
        final DataDirectory data = AuditJournals.write(DataDirectory.open(dir), COMMANDS, 7);
        AuditJournals.answer(data, 1_000, true);
        AuditJournals.answer(data, 1_000, true);
        AuditJournals.answer(data, Long.MAX_VALUE, false);
        System.setProperty("chronex.audit.verifyPart", "300");
        System.setProperty("chronex.audit.verifyKeepEvery", "400");
        try {
            final Run one = audit("verify", "--data-dir", dir.toString(), "--config", CONFIG.toString(), "--threads", "1");
            assertEquals(0, one.exit(), one.output());
            assertTrue(one.output().contains("one part"), one.output());
            assertTrue(one.output().contains("RESULT verified=3001 mismatches=0 first_mismatch_index=- unanswered=0 checkpoints_equal=2"),
                one.output());
            // That pass kept a snapshot every 400 commands (DIR/audit-index; not at the 2,000th, where the engine's is): the next
            // run cuts the journal at them too, and at the engine's after the 2,000th (the one after the 1,000th is 200 commands
            // from the kept one before it: too short a part).
            final Path kept = dir.resolve("audit-index").resolve("snapshots-" + Long.toHexString(MatchingEngine.configHash(
                EngineConfigFile.load(CONFIG))));
            final List<Long> keptAt = SnapshotFiles.indices(kept);
            assertEquals(6, keptAt.size(), keptAt.toString());
            final Run two = audit("verify", "--data-dir", dir.toString(), "--config", CONFIG.toString(), "--threads", "2");
            assertEquals(0, two.exit(), two.output());
            assertTrue(two.output().contains("8 parts cut at snapshots, on 2 threads"), two.output());
            // Every snapshot passed is a checkpoint, the 7 each part ends at (the next part's start) among them.
            assertTrue(two.output().contains("RESULT verified=3001 mismatches=0 first_mismatch_index=- unanswered=0 checkpoints_equal=8"),
                two.output());

            // Two results altered, the 500th and the 2,500th: the first is reported, with what came before it counted.
            final Path altered = tmp.resolve("altered");
            copy(dir, altered);
            final long first = alterResult(DataDirectory.open(altered), 500);
            alterResult(DataDirectory.open(altered), 2_500);
            final Run both = audit("verify", "--data-dir", altered.toString(), "--config", CONFIG.toString(), "--threads", "2");
            assertEquals(1, both.exit(), both.output());
            assertTrue(both.output().contains("RESULT verified=499 mismatches=1 first_mismatch_index=0x" + Long.toHexString(first)
                + " unanswered=- checkpoints_equal=1"), both.output());
            assertEquals(1, both.output().split("MISMATCH", -1).length - 1, both.output());

            // A kept snapshot renamed (the next one's file under its name): not a place to start a part, and said.
            final Path renamed = tmp.resolve("renamed");
            copy(dir, renamed);
            final Path keptRenamed = renamed.resolve(dir.relativize(kept).toString());
            Files.copy(keptRenamed.resolve(SnapshotFiles.name(keptAt.get(0))), keptRenamed.resolve(SnapshotFiles.name(keptAt.get(1))),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            final Run named = audit("verify", "--data-dir", renamed.toString(), "--config", CONFIG.toString(), "--threads", "2");
            assertEquals(0, named.exit(), named.output());
            assertTrue(named.output().contains("note: not starting a part from " + keptRenamed.resolve(SnapshotFiles.name(keptAt.get(1)))
                + ": its name says journal index 0x" + Long.toHexString(keptAt.get(1))), named.output());

            // A kept snapshot holding another state under a right header (the next one's state sealed as its own): the part
            // before it does not reach it, so the run fails there, though every result is equal; no part is trusted on a
            // snapshot alone.
            final Path swapped = tmp.resolve("swapped");
            copy(dir, swapped);
            final Path keptSwapped = swapped.resolve(dir.relativize(kept).toString());
            forge(keptSwapped.resolve(SnapshotFiles.name(keptAt.get(0))), keptSwapped.resolve(SnapshotFiles.name(keptAt.get(1))));
            final Run state = audit("verify", "--data-dir", swapped.toString(), "--config", CONFIG.toString(), "--threads", "2");
            assertEquals(1, state.exit(), state.output());
            assertTrue(state.output().contains("MISMATCH: the state after journal index 0x" + Long.toHexString(keptAt.get(1))
                + " differs from the snapshot " + kept.getFileName() + "/"), state.output());
            assertTrue(state.output().contains("kept by an earlier audit run"), state.output());
        } finally {
            System.clearProperty("chronex.audit.verifyPart");
            System.clearProperty("chronex.audit.verifyKeepEvery");
        }
    }

    @Test
    void resultsAnsweredTwiceAcrossWherePartsMeetAreFoundAsOnePassFindsThem() throws Exception {
        final Path dir = tmp.resolve("data");
        final DataDirectory data = AuditJournals.write(DataDirectory.open(dir), COMMANDS, 7);
        AuditJournals.answer(data);
        System.setProperty("chronex.audit.verifyPart", "300");
        System.setProperty("chronex.audit.verifyKeepEvery", "400");
        try {
            assertEquals(0, audit("verify", "--data-dir", dir.toString(), "--config", CONFIG.toString(), "--threads", "1").exit());
            // The same journal, its results rewritten with the 1,101st to 1,300th answered twice: a part meets the next at the
            // snapshot kept after the 1,200th command, inside the block given twice.
            final Path twice = tmp.resolve("twice");
            copy(dir, twice);
            deleteEvents(twice);
            final List<byte[]> results = new ArrayList<>();
            try (SingleChronicleQueue events = data.events()) {
                final ExcerptTailer tailer = events.createTailer();
                for (DocumentContext dc = tailer.readingDocument(); dc.isPresent(); dc = tailer.readingDocument()) {
                    results.add(dc.wire().bytes().toByteArray());
                    dc.close();
                }
            }
            try (SingleChronicleQueue events = DataDirectory.open(twice).events()) {
                final net.openhft.chronicle.queue.ExcerptAppender appender = events.createAppender();
                final List<byte[]> order = new ArrayList<>(results.subList(0, 1_300));
                order.addAll(results.subList(1_100, results.size()));
                for (final byte[] result : order) {
                    try (DocumentContext dc = appender.writingDocument()) {
                        dc.wire().bytes().write(result);
                    }
                }
            }
            final Run one = audit("verify", "--data-dir", twice.toString(), "--config", CONFIG.toString(), "--threads", "1");
            final Run two = audit("verify", "--data-dir", twice.toString(), "--config", CONFIG.toString(), "--threads", "2");
            assertEquals(1, one.exit(), one.output());
            assertTrue(one.output().contains("skipped or answered twice"), one.output());
            assertTrue(two.output().contains("parts cut at snapshots, on 2 threads"), two.output());
            assertEquals(1, two.exit(), two.output());
            assertTrue(two.output().contains("skipped or answered twice"), two.output());
            assertEquals(resultLine(one), resultLine(two), "the same first difference and counts");
        } finally {
            System.clearProperty("chronex.audit.verifyPart");
            System.clearProperty("chronex.audit.verifyKeepEvery");
        }
    }

    /** The RESULT line of a run, without the checkpoints (parts add their meeting points). */
    private static String resultLine(final Run run) {
        return run.output().lines().filter(line -> line.startsWith("RESULT")).findFirst().orElse("")
            .replaceAll(" checkpoints_equal=\\d+", "");
    }

    private static void deleteEvents(final Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir.resolve("events"))) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(file -> {
                try {
                    Files.delete(file);
                } catch (final IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }

    /** The checkpoints in the events: {journal index answered, state hash}, in order. */
    private static List<long[]> checkpoints(final DataDirectory data) {
        final List<long[]> found = new ArrayList<>();
        final EventHeader header = new EventHeader();
        final Result result = new Result();
        try (SingleChronicleQueue events = data.events()) {
            final ExcerptTailer tailer = events.createTailer();
            while (true) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (!dc.isPresent()) {
                        return found;
                    }
                    assertEquals(DecodeStatus.OK, EventCodec.read(dc.wire().bytes(), header, result));
                    if (header.checkpoint) {
                        found.add(new long[] {header.commandIndex, header.stateHash});
                    }
                }
            }
        }
    }

    private static String describe(final List<long[]> checkpoints) {
        final StringBuilder text = new StringBuilder();
        checkpoints.forEach(c -> text.append(Long.toHexString(c[0])).append('=').append(Long.toHexString(c[1])).append(' '));
        return text.toString();
    }

    /** Changes one bit of the state hash in the result answering {@code journalIndex} (a checkpoint's last 8 bytes). */
    private static void flipStateHash(final DataDirectory data, final long journalIndex) {
        final EventHeader header = new EventHeader();
        try (SingleChronicleQueue events = data.events()) {
            final ExcerptTailer tailer = events.createTailer();
            while (true) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    assertTrue(dc.isPresent(), "no result answers 0x" + Long.toHexString(journalIndex));
                    final Bytes<?> bytes = dc.wire().bytes();
                    assertEquals(DecodeStatus.OK, EventCodec.readHeader(bytes, header));
                    if (header.commandIndex == journalIndex) {
                        assertTrue(header.checkpoint);
                        final long at = bytes.readLimit() - EventCodec.STATE_HASH_LENGTH;
                        bytes.bytesStore().writeLong(at, bytes.bytesStore().readLong(at) ^ 1);
                        return;
                    }
                }
            }
        }
    }

    @Test
    void anotherConfigurationIsRefused() throws Exception {
        final Path dir = answeredJournal();
        final Run run = audit("verify", "--data-dir", dir.toString(), "--config",
            CONFIG.resolveSibling("exchange-core-bench.yaml").toString());
        assertEquals(2, run.exit(), run.output());
        assertEquals(2, audit("verify", "--data-dir", tmp.resolve("missing").toString(), "--config", CONFIG.toString()).exit());
        assertEquals(2, audit("nonsense").exit());
        assertEquals(0, audit("--help").exit());
    }

    /**
     * Rewrites the {@code n}-th events excerpt in place with its affected-orders count plus one (a
     * field no timestamp touches, encoded at the same length); returns the journal index it answers.
     */
    private static long alterResult(final DataDirectory data, final int n) {
        try (SingleChronicleQueue events = data.events()) {
            final ExcerptTailer tailer = events.createTailer();
            for (int i = 1; i < n; i++) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    assertTrue(dc.isPresent());
                }
            }
            try (DocumentContext dc = tailer.readingDocument()) {
                final Bytes<?> bytes = dc.wire().bytes();
                final long at = bytes.readPosition();
                final EventHeader header = new EventHeader();
                final Result result = new Result();
                EventCodec.read(bytes, header, result);
                result.affectedOrders++;
                final Bytes<?> rewritten = Bytes.allocateElasticOnHeap(4096);
                EventCodec.write(rewritten, header, result);
                bytes.bytesStore().write(at, rewritten.toByteArray());
                return header.commandIndex;
            }
        }
    }

    private static void copy(final Path from, final Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            files.forEach(source -> {
                try {
                    Files.copy(source, to.resolve(from.relativize(source).toString()));
                } catch (final IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }

    /**
     * Puts the state held by the snapshot {@code from} into the snapshot {@code to} under {@code to}'s own header (journal
     * index, configuration, command fingerprint): a file that passes every check of what it claims to be and holds
     * another state, which only re-execution can find.
     */
    private static void forge(final Path from, final Path to) throws Exception {
        final byte[] own = Files.readAllBytes(to);
        final io.chronex.queues.SnapshotEnvelope.Header header = io.chronex.queues.SnapshotEnvelope.open(own);
        final byte[] other = Files.readAllBytes(from);
        io.chronex.queues.SnapshotEnvelope.open(other);
        final byte[] body = java.util.Arrays.copyOfRange(other, io.chronex.queues.SnapshotEnvelope.HEADER_BYTES, other.length);
        Files.write(to, io.chronex.queues.SnapshotEnvelope.wrap(header.journalIndex(), header.configHash(), header.commandFingerprint(),
            body));
    }
}
