package io.chronex.replay;

import io.chronex.queues.ArchivedConfigRecords;
import io.chronex.queues.ArchivedCycles;
import io.chronex.queues.CycleArchive;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.DecodeStatus;
import io.chronex.queues.EventCodec;
import io.chronex.queues.EventHeader;
import io.chronex.queues.JournalConfig;
import io.chronex.queues.ReaderCheckpoint;
import io.chronex.queues.SnapshotFiles;
import io.chronex.runtime.Args;
import io.chronex.runtime.Tool;
import io.chronex.runtime.WholeFile;
import io.chronex.api.Result;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * bin/admin archive: moves whole past cycles (days) of the journal and the events queue to an archive, once nothing that
 * starts on the data directory needs them: the engine recovers from its newest snapshot, so only cycles before that
 * snapshot's go; gateways and the market-data publisher start from checkpoints of their own ({@link ReaderCheckpoint}),
 * so only cycles before every one of those go too. The configuration records of the journal cycles that go are kept in the data directory
 * first. The move itself is {@link CycleArchive}'s (crash-safe); Chronicle's shared directory listing is refreshed after.
 */
final class Archive {
    static final String USAGE = """
        Usage: bin/admin archive --data-dir DIR --before DATE [--to ARCHIVE] [--compress] [--dry-run]

        Moves the whole days (cycle files) of DIR's journal (commands/) and events queue (events/) before DATE to
        ARCHIVE, to free the data directory's disk. Safe with the engine running. Only days nothing needs to start:
          - strictly before DATE's day (UTC), never today's, never a queue's newest file;
          - before the day of the engine's newest snapshot: recovery starts there and never reads an archived day
            (take one first with bin/admin --data-dir DIR snapshot);
          - before the day of the checkpoint of every gateway and of the market-data publisher that served DIR: they
            start from it (each takes one when it starts, at the first event of every day, and when stopped).
        Anything else is refused (exit 2) with what it would need, and nothing moves. Each file is copied (gzip with
        --compress), forced to disk, read back and checked against the original's SHA-256, listed in ARCHIVE/manifest
        and DIR/archived-cycles, and only then deleted from DIR: a kill at any point leaves every day either in place
        or whole in the archive, and the next run finishes what it left. The configuration records of archived journal
        days are kept in DIR/snapshots/config-records-archived, so every process still finds the configuration.
        bin/audit and bin/journal-summary read archived days back when asked about them (ARCHIVE must be where
        DIR/archived-cycles says).

          --data-dir DIR   the data directory (default ./data)
          --before DATE    a UTC day, 2026-11-28: days before it go
          --to ARCHIVE     where they go (default DIR/archive); one data directory keeps one archive
          --compress       store each day gzip-compressed (FILE.cq4.gz)
          --dry-run        check and list what would move; move nothing
        Ends with: RESULT archived=N bytes=B stored=S archive=ARCHIVE (dry run: would_archive=N)
        Exit 0 done (or nothing to do); 1 a failure while moving (what was moved is listed, the rest is in place);
        2 refused or a usage error.
          e.g. bin/admin archive --data-dir data --before 2026-11-28 --compress
        """;

    private static final long DAY_MILLIS = 86_400_000L;

    private Archive() {
    }

    /** One file to move. */
    private record Move(String queue, String file, long bytes) {
    }

    /**
     * What starts from a point in the queues and so needs every day from that point's on: its name, index and day; reader is
     * the line {@code DIR/archived-readers} keeps for it (null for the engine).
     */
    private record Needs(String who, long index, int cycle, String remedy, String reader) {
    }

    static int run(final String[] argv, final PrintStream out) throws IOException {
        final Args args = Args.parse(argv, Set.of("--data-dir", "--before", "--to"), Set.of("--compress", "--dry-run"), 1);
        final Path dir = args.path("--data-dir", Path.of("data")).toAbsolutePath().normalize();
        if (!Files.isRegularFile(dir.resolve(DataDirectory.MARKER))) {
            throw new Args.UsageException(dir + " is not a chronex data directory (no " + DataDirectory.MARKER + ")");
        }
        final int before = beforeCycle(args.required("--before", "2026-11-28"));
        final Path archive = archiveDir(dir, args.path("--to", dir.resolve("archive")));
        final DataDirectory data = DataDirectory.openReadOnly(dir);
        try (FileChannel lockFile = FileChannel.open(dir.resolve(ArchivedCycles.LOCK), StandardOpenOption.CREATE,
            StandardOpenOption.WRITE); FileLock lock = lockFile.tryLock()) {
            if (lock == null) {
                throw new Args.UsageException("another bin/admin archive, or a bin/audit or bin/journal-summary reading the history of "
                    + dir + ", holds " + dir.resolve(ArchivedCycles.LOCK) + ": run this again when it has finished");
            }
            final List<Needs> needs = readersCheckpoints(data);
            if (!args.flag("--dry-run")) {
                // What a killed run left is finished first, and every process told which days are left, before the days to
                // move are chosen (a day whose original the finish deletes must not be chosen again) and the configuration
                // records read (a stale listing would hide the journal's first live day from them).
                finishInterrupted(data, archive, out);
            }
            final long snapshotIndex = newestSnapshot(data);
            final int snapshotCycle = ArchivedCycles.cycleOfIndex(snapshotIndex);
            needs.add(0, new Needs("the engine's newest snapshot", snapshotIndex, snapshotCycle, "its recovery would read it. Take a"
                + " snapshot (bin/admin --data-dir DIR snapshot, with the engine running)", null));
            final int today = (int) Math.floorDiv(System.currentTimeMillis(), DAY_MILLIS);
            for (final Needs n : needs) {
                out.printf("%s is at index 0x%x (%s): days before it can go%n", n.who(), n.index(), LocalDate.ofEpochDay(n.cycle()));
            }
            final List<Move> moves = new ArrayList<>();
            for (final String queue : ArchivedCycles.QUEUES) {
                moves.addAll(candidates(dir.resolve(queue), queue, Math.min(before, today), needs, out));
            }
            if (args.flag("--dry-run")) {
                moves.forEach(m -> out.printf(Locale.ROOT, "would archive %s/%s (%,d bytes)%n", m.queue(), m.file(), m.bytes()));
                out.println("RESULT would_archive=" + moves.size() + " archive=" + archive);
                return 0;
            }
            if (!moves.isEmpty()) {
                keepReaders(dir, needs);
            }
            return move(data, archive, moves, args.flag("--compress"), out);
        }
    }

    private static int move(final DataDirectory data, final Path archive, final List<Move> moves, final boolean compress,
                            final PrintStream out) throws IOException {
        final CycleArchive cycles;
        try {
            cycles = new CycleArchive(data.root(), archive);
        } catch (final IllegalStateException e) {
            throw new Args.UsageException(e.getMessage());
        }
        keepConfigRecords(data, moves);
        long bytes = 0;
        long stored = 0;
        int archived = 0;
        try {
            for (final Move m : moves) {
                final ArchivedCycles.Cycle cycle = cycles.move(m.queue(), m.file(), compress);
                final long size = Files.size(archive.resolve(m.queue()).resolve(cycle.stored()));
                out.printf(Locale.ROOT, "archived %s/%s -> %s (%,d bytes, stored %,d, SHA-256 %s)%n", m.queue(), m.file(),
                    archive.resolve(m.queue()).resolve(cycle.stored()), cycle.bytes(), size, cycle.sha256());
                bytes += cycle.bytes();
                stored += size;
                archived++;
                // At once, not only at the end: a kill later must not leave readers with a first day that is gone.
                refreshListings(data.root());
            }
        } catch (final IOException e) {
            throw new Tool.Failure("stopped after " + archived + " of " + moves.size() + " files: " + e.getMessage());
        } finally {
            refreshListings(data.root());
        }
        out.println("RESULT archived=" + archived + " bytes=" + bytes + " stored=" + stored + " archive=" + archive);
        return 0;
    }

    private static void finishInterrupted(final DataDirectory data, final Path archive, final PrintStream out) throws IOException {
        if (!Files.isDirectory(archive)) {
            return;
        }
        final CycleArchive cycles;
        try {
            cycles = new CycleArchive(data.root(), archive);
        } catch (final IllegalStateException e) {
            throw new Args.UsageException(e.getMessage());
        }
        final int finished = cycles.finishInterrupted();
        if (finished > 0) {
            out.println("finished an interrupted run: " + finished + " archived file(s) whose original was still in place removed");
        }
        refreshListings(data.root());
    }

    /** A UTC day as a FAST_DAILY cycle number (days since 1970-01-01). */
    private static int beforeCycle(final String text) {
        try {
            return (int) LocalDate.parse(text).toEpochDay();
        } catch (final DateTimeParseException e) {
            throw new Args.UsageException("--before needs a UTC day such as 2026-11-28, not '" + text + "'");
        }
    }

    /** The archive directory: DIR/archive, or a directory outside DIR that is neither a data directory nor a queue. */
    private static Path archiveDir(final Path dir, final Path given) {
        final Path archive = given.toAbsolutePath().normalize();
        final boolean inside = archive.startsWith(dir);
        final boolean foreign = Files.exists(archive.resolve(DataDirectory.MARKER)) || Files.exists(archive.resolve("metadata.cq4t"));
        if (inside ? !archive.equals(dir.resolve("archive")) : foreign) {
            throw new Args.UsageException("--to " + archive + " is not a place for an archive: give " + dir.resolve("archive")
                + " or a directory outside " + dir + " that is neither a data directory nor a queue");
        }
        return archive;
    }

    /**
     * The checkpoint of every gateway and of the market-data publisher that served the directory: each starts from its own,
     * so a day on or after it must stay. One that served it without a checkpoint (an older build) or whose checkpoint does not
     * read whole or match the queues would read them from their first day: refused.
     */
    private static List<Needs> readersCheckpoints(final DataDirectory data) throws IOException {
        final Path dir = data.root();
        final List<Path> readers = new ArrayList<>();
        final Path gateways = dir.resolve("gateways");
        if (Files.isDirectory(gateways)) {
            try (Stream<Path> each = Files.list(gateways)) {
                each.sorted().filter(g -> Files.exists(g.resolve("outbound")) || Files.exists(g.resolve("sessions.state")))
                    .forEach(readers::add);
            }
        }
        if (Files.exists(dir.resolve("marketdata"))) {
            readers.add(dir.resolve("marketdata"));
        }
        final List<Needs> needs = new ArrayList<>();
        if (readers.isEmpty() || !data.hasQueue("commands") || !data.hasQueue("events")) {
            return needs;
        }
        final boolean archivedAlready = !ArchivedCycles.ofDataDirectory(dir).isEmpty();
        try (SingleChronicleQueue commands = data.commands(); SingleChronicleQueue events = data.events()) {
            for (final Path reader : readers) {
                final boolean publisher = reader.getFileName().toString().equals("marketdata");
                final String who = publisher ? "the market-data publisher" : "gateway " + reader.getFileName();
                final String start = publisher ? "bin/marketdata" : "bin/gateway --id " + reader.getFileName();
                final Path file = reader.resolve(ReaderCheckpoint.FILE);
                final ReaderCheckpoint.Checkpoint checkpoint;
                final String problem;
                try {
                    checkpoint = ReaderCheckpoint.read(file, publisher ? ReaderCheckpoint.PUBLISHER : ReaderCheckpoint.GATEWAY,
                        publisher ? 0 : Integer.parseInt(reader.getFileName().toString()));
                    problem = checkpoint == null ? "it has none: a build before checkpoints, or the file was lost"
                        : checkpoint.header().mismatch(commands, events);
                } catch (final IllegalArgumentException e) {
                    throw new Args.UsageException("refused: " + who + " served " + dir + " and its checkpoint cannot be read ("
                        + e.getMessage() + "): it would read the queues from their first day. Start it (" + start + "), which"
                        + " takes a new one, and archive again");
                }
                if (problem != null) {
                    throw new Args.UsageException("refused: " + who + " served " + dir + " and cannot start from a checkpoint ("
                        + file + ": " + problem + "), so it reads the queues from their first day. " + (archivedAlready
                        ? "Days are archived already, so its start is refused too: put the checkpoint back from a copy of " + reader
                        + " taken with it stopped (or the archived days), start it, then archive again"
                        : "Start it once (" + start + "): its start takes a checkpoint; then archive again"));
                }
                final ReaderCheckpoint.Header h = checkpoint.header();
                // A gateway reads back the commands the events after its checkpoint answer: from the one its event answers on.
                final int cycle = publisher ? h.firstCycle() : Math.min(h.firstCycle(), answeredCycle(events, h.eventsIndex()));
                needs.add(new Needs(who + "'s checkpoint", h.eventsIndex(), cycle, "its next start reads from there."
                    + " It takes a checkpoint when it starts, at the first event of each day and when it stops: wait for one"
                    + " (or restart " + start + ")", publisher ? "marketdata" : "gateway " + reader.getFileName()));
            }
        }
        return needs;
    }

    /** The day of the command the events excerpt at index answers (its own day when it cannot be read: no later). */
    private static int answeredCycle(final SingleChronicleQueue events, final long index) {
        final EventHeader header = new EventHeader();
        try (ExcerptTailer tailer = events.createTailer()) {
            if (tailer.moveToIndex(index)) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (dc.isPresent() && EventCodec.read(dc.wire().bytes(), header, new Result()) == DecodeStatus.OK
                        && header.commandIndex >= 0) {
                        return Math.min(ArchivedCycles.cycleOfIndex(header.commandIndex), ArchivedCycles.cycleOfIndex(index));
                    }
                }
            }
        }
        return ArchivedCycles.cycleOfIndex(index);
    }

    /**
     * Adds the readers that serve the directory now to DIR/archived-readers, before a day goes: a gateway listed there without
     * its checkpoint has lost it (and refuses to start), one not listed is new and needs none of the archived days.
     */
    private static void keepReaders(final Path dir, final List<Needs> needs) throws IOException {
        final Path file = dir.resolve(ArchivedCycles.READERS);
        final Set<String> readers = new java.util.TreeSet<>();
        if (Files.exists(file)) {
            final String body = WholeFile.checkedBody(Files.readString(file));
            if (body == null) {
                throw new Tool.Failure(file + " is damaged (its check line does not match): nothing archived. It lists the gateways"
                    + " that served " + dir + " before days were archived; put it back from a copy, or write it again with one line"
                    + " 'gateway N' per gateway directory under " + dir.resolve("gateways") + " and 'marketdata'");
            }
            body.lines().filter(l -> !l.isBlank()).forEach(readers::add);
        }
        needs.stream().map(Needs::reader).filter(java.util.Objects::nonNull).forEach(readers::add);
        WholeFile.writeChecked(file, String.join("\n", readers) + "\n");
    }

    /** The journal index of the engine's newest snapshot that reads and matches the journal. */
    private static long newestSnapshot(final DataDirectory data) {
        final Long pinned = SnapshotFiles.pinnedConfigHash(data.snapshots());
        if (!data.hasQueue("commands") || pinned == null) {
            throw new Args.UsageException("refused: no engine has answered on " + data.root() + " (no " + SnapshotFiles.CONFIG_HASH
                + "): nothing is past");
        }
        try (SingleChronicleQueue commands = data.commands()) {
            for (final long index : SnapshotFiles.indices(data.snapshots())) {
                try {
                    SnapshotFiles.read(data.snapshots().resolve(SnapshotFiles.name(index)), new SnapshotFiles.Expect(pinned, commands));
                    return index;
                } catch (final IOException | RuntimeException e) {
                    // A snapshot the engine would skip: the next older one is what its recovery would use.
                }
            }
        }
        throw new Args.UsageException("refused: " + data.snapshots() + " has no snapshot the engine could recover from, so its"
            + " recovery would replay the journal from its first day. Take one (bin/admin --data-dir " + data.root() + " snapshot,"
            + " with the engine running) and archive again");
    }

    /**
     * The cycle files of a queue that may go: before {@code limit}, before the day of everything that starts from a point in
     * the queues, and not the queue's newest (its writer may still be about to mark its end). Refused when a day before
     * {@code limit} must stay for one of them.
     */
    private static List<Move> candidates(final Path queue, final String name, final int limit, final List<Needs> needs,
                                         final PrintStream out) throws IOException {
        final TreeMap<Integer, Path> files = new TreeMap<>();
        if (Files.isDirectory(queue)) {
            try (Stream<Path> each = Files.list(queue)) {
                each.forEach(f -> ArchivedCycles.cycleOf(f.getFileName().toString()).ifPresent(c -> files.put(c, f)));
            }
        }
        final List<Move> moves = new ArrayList<>();
        for (final Map.Entry<Integer, Path> e : files.entrySet()) {
            if (e.getKey() >= limit) {
                continue;
            }
            if (e.getKey().equals(files.lastKey())) {
                out.printf("kept %s/%s: the queue's newest file (its writer marks a day's end only when it rolls to the next)%n", name,
                    e.getValue().getFileName());
                continue;
            }
            for (final Needs n : needs) {
                if (e.getKey() >= n.cycle()) {
                    throw new Args.UsageException("refused: " + name + "/" + e.getValue().getFileName() + " is on or after the day of "
                        + n.who() + " (index 0x" + Long.toHexString(n.index()) + ", " + LocalDate.ofEpochDay(n.cycle()) + "): "
                        + n.remedy() + " and archive again, or give an earlier --before");
                }
            }
            moves.add(new Move(name, e.getValue().getFileName().toString(), Files.size(e.getValue())));
        }
        return moves;
    }

    /** The configuration records in the journal days that go, kept byte for byte in the data directory before any goes. */
    private static void keepConfigRecords(final DataDirectory data, final List<Move> moves) throws IOException {
        final Set<Integer> going = new java.util.HashSet<>();
        moves.stream().filter(m -> m.queue().equals("commands")).forEach(m -> going.add(ArchivedCycles.cycleOf(m.file()).orElseThrow()));
        if (going.isEmpty()) {
            return;
        }
        final Map<Long, byte[]> records = new TreeMap<>();
        final JournalConfig journal = JournalConfig.ofDirectory(data);
        if (journal.first() == null) {
            // Every engine of this build records its configuration before it answers anything: none found means the journal
            // was not read whole, and days that go must not take records nobody kept.
            throw new Tool.Failure("no configuration record found in the journal of " + data.root() + ": nothing archived (start the"
                + " engine once with this build, which records one, and archive again)");
        }
        try (SingleChronicleQueue commands = data.commands(); ExcerptTailer tailer = commands.createTailer()) {
            for (final JournalConfig.Entry entry : journal.entries()) {
                if (!going.contains(ArchivedCycles.cycleOfIndex(entry.index()))) {
                    continue;
                }
                if (!tailer.moveToIndex(entry.index())) {
                    throw new Tool.Failure("cannot read the configuration record at journal index 0x" + Long.toHexString(entry.index())
                        + " to keep it: nothing archived");
                }
                try (DocumentContext dc = tailer.readingDocument()) {
                    records.put(entry.index(), dc.wire().bytes().toByteArray());
                }
            }
        }
        final Path file = ArchivedConfigRecords.file(data);
        ArchivedConfigRecords.read(file).plus(records, file);
    }

    /** Tells every process with the queues open (Chronicle's shared listing in metadata.cq4t) which cycle files are left. */
    private static void refreshListings(final Path root) {
        final DataDirectory writable = DataDirectory.openForTool(root);
        try (SingleChronicleQueue commands = writable.commands(); SingleChronicleQueue events = writable.events()) {
            commands.refreshDirectoryListing();
            events.refreshDirectoryListing();
        }
    }
}
