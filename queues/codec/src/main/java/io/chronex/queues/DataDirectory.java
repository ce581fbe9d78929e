package io.chronex.queues;

import io.chronex.runtime.Args;
import net.openhft.chronicle.core.time.TimeProvider;
import net.openhft.chronicle.queue.RollCycles;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.queue.impl.single.TableStoreWriteLock;
import net.openhft.chronicle.threads.Pauser;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * The one place queue settings live: a data directory holds {@code commands/} (the journal),
 * {@code events/} and {@code snapshots/}, and a marker file naming the layout version and the
 * settings the queues were created with. A directory that is not ours, or ours with other
 * settings, is refused with a clear error instead of silently gaining new queues.
 */
public final class DataDirectory {
    public static final String MARKER = "chronex-data.properties";
    /**
     * Held (an OS file lock) while a process creates or checks the directory, so processes started
     * together see either no marker or a whole one. Files named {@code .chronex-*} are ours.
     */
    static final String OPEN_LOCK = ".chronex-open.lock";
    private static final String OUR_FILES = ".chronex-";
    /** A JVM may not take the same file lock twice: its threads take turns here first. */
    private static final Object OPENING_IN_THIS_JVM = new Object();
    static final String LAYOUT_VERSION = "1";
    /** Fixed at creation; a queue's roll cycle cannot change afterwards. */
    static final RollCycles ROLL_CYCLE = RollCycles.FAST_DAILY;
    /** Non-zero source ids, stored in each queue's metadata at creation (Chronicle's MessageHistory needs them). */
    static final int COMMANDS_SOURCE_ID = 1;
    static final int EVENTS_SOURCE_ID = 2;
    /** Gateway ids are 1..999 (0 in a command means "not from a gateway"). */
    public static final int MAX_GATEWAY_ID = 999;

    private final Path root;
    /** What messages call this directory (a history view's temporary root is not where the user's data is). */
    private final Path shownAs;
    /** Decides when the queues roll to a new day's file; null for the system clock. */
    private final TimeProvider clock;
    /** Opened by {@link #openReadOnly}: its queues are mapped read-only, so this process cannot append or change them. */
    private final boolean readOnly;
    /** A {@link HistoryView}'s assembled directory: its queues have no metadata of their own (see {@link #view}). */
    private final boolean view;

    private DataDirectory(final Path root, final TimeProvider clock, final boolean readOnly) {
        this(root, clock, readOnly, false);
    }

    private DataDirectory(final Path root, final TimeProvider clock, final boolean readOnly, final boolean view) {
        this(root, clock, readOnly, view, root);
    }

    private DataDirectory(final Path root, final TimeProvider clock, final boolean readOnly, final boolean view, final Path shownAs) {
        this.root = root;
        this.clock = clock;
        this.readOnly = readOnly;
        this.view = view;
        this.shownAs = shownAs;
    }

    /**
     * A read-only data directory over a {@link HistoryView}'s assembled directory. Its queue folders hold cycle files and no
     * {@code metadata.cq4t}: a read-only queue without one lists the cycle files in its folder, where a copy of the live
     * queue's metadata would name the live queue's first cycle and hide the archived ones.
     */
    static DataDirectory view(final Path assembled, final Path dataDirectory) {
        final DataDirectory checked = openReadOnly(assembled);
        return new DataDirectory(checked.root, null, true, true, dataDirectory);
    }

    /**
     * For readers that must never write (the monitor): an existing data directory with a marker
     * this build accepts, or a usage error saying why. Creates nothing and takes no lock (the
     * {@code .chronex-open.lock} writers hold while creating is left alone: a writer never waits on
     * a reader); queues opened from it are read-only ({@link #hasQueue} says whether one exists yet).
     */
    public static DataDirectory openReadOnly(final Path dir) {
        final Path root = dir.toAbsolutePath().normalize();
        final Path marker = root.resolve(MARKER);
        if (!Files.isDirectory(root)) {
            throw new Args.UsageException(root + " does not exist or is not a directory (a reader creates nothing)");
        }
        if (!Files.exists(marker)) {
            throw new Args.UsageException(root + " is not a chronex data directory (no " + MARKER + ")");
        }
        try {
            check(marker);
        } catch (final IllegalStateException e) {
            throw new Args.UsageException(e.getMessage());
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot read " + marker + ": " + e.getMessage(), e);
        }
        return new DataDirectory(root, null, true);
    }

    /**
     * Whether the named queue ({@code commands} or {@code events}) has been created by a writer:
     * a read-only reader cannot create one, so it waits for this before opening it.
     */
    public boolean hasQueue(final String name) {
        if (view) {
            return Files.isDirectory(root.resolve(name));
        }
        return Files.exists(root.resolve(name).resolve("metadata.cq4t"));
    }

    /** For a tool's command line: a directory that cannot be opened is a usage error saying why. */
    public static DataDirectory openForTool(final Path dir) {
        try {
            return open(dir);
        } catch (final IllegalStateException e) {
            throw new Args.UsageException(e.getMessage());
        }
    }

    /**
     * Opens a data directory, creating it (and its marker) when it does not exist or is empty.
     *
     * @throws IllegalStateException when the directory holds something that is not a chronex data
     *                               directory, or one with another layout version or settings
     */
    public static DataDirectory open(final Path dir) {
        final Path root = dir.toAbsolutePath().normalize();
        try {
            if (Files.exists(root) && !Files.isDirectory(root)) {
                throw new IllegalStateException(root + " is a file, not a data directory");
            }
            final Path marker = root.resolve(MARKER);
            // Refused before anything of ours is written into a directory that is not ours.
            refuseForeign(root, marker);
            Files.createDirectories(root);
            synchronized (OPENING_IN_THIS_JVM) {
                try (FileChannel lockFile = FileChannel.open(root.resolve(OPEN_LOCK), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE)) {
                    lockFile.lock(); // released when the channel closes
                    if (!Files.exists(marker)) {
                        refuseForeign(root, marker);
                        writeMarker(marker);
                    }
                    check(marker);
                    Files.createDirectories(root.resolve("commands"));
                    Files.createDirectories(root.resolve("events"));
                    Files.createDirectories(root.resolve("snapshots"));
                    if (!Files.exists(root.resolve(ArchivedCycles.LOCK))) {
                        // Made by writers, so readers of the history (who create nothing) always find it to share.
                        Files.createFile(root.resolve(ArchivedCycles.LOCK));
                    }
                }
            }
            return new DataDirectory(root, null, false);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot open data directory " + root + ": " + e.getMessage(), e);
        }
    }

    /**
     * A directory with files but no marker is not ours. The marker is always in place before any
     * queue folder, so a listing that shows another process's folders is followed by a marker.
     */
    private static void refuseForeign(final Path root, final Path marker) throws IOException {
        if (!Files.isDirectory(root) || Files.exists(marker) || onlyOurs(root)) {
            return;
        }
        // The listing may have caught another process's queue folders made just after its marker.
        if (!Files.exists(marker)) {
            throw new IllegalStateException(root + " is not a chronex data directory (it has files but no " + MARKER
                + "); refusing to create queues in it. Point --data-dir at an empty or new directory.");
        }
    }

    /** True when the directory holds nothing, or only our lock and temporary files. */
    private static boolean onlyOurs(final Path dir) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.allMatch(p -> p.getFileName().toString().startsWith(OUR_FILES));
        }
    }

    private static Properties expected() {
        final Properties p = new Properties();
        p.setProperty("layout", LAYOUT_VERSION);
        p.setProperty("rollCycle", ROLL_CYCLE.name());
        p.setProperty("commandsSourceId", Integer.toString(COMMANDS_SOURCE_ID));
        p.setProperty("eventsSourceId", Integer.toString(EVENTS_SOURCE_ID));
        return p;
    }

    /** Written whole to a temporary file, forced to disk, then renamed: a reader sees no marker or all of it. */
    private static void writeMarker(final Path marker) throws IOException {
        final Path partial = marker.resolveSibling(OUR_FILES + MARKER + "." + ProcessHandle.current().pid() + ".tmp");
        try (Writer out = Files.newBufferedWriter(partial)) {
            expected().store(out, "chronex data directory: settings fixed when its queues were created; do not edit");
        }
        try (FileChannel written = FileChannel.open(partial, StandardOpenOption.WRITE)) {
            written.force(true);
        }
        Files.move(partial, marker, StandardCopyOption.ATOMIC_MOVE);
    }

    private static void check(final Path marker) throws IOException {
        final Properties found = new Properties();
        try (Reader in = Files.newBufferedReader(marker)) {
            found.load(in);
        }
        final Properties expected = expected();
        for (final String key : expected.stringPropertyNames()) {
            if (!expected.getProperty(key).equals(found.getProperty(key))) {
                throw new IllegalStateException(marker + ": " + key + " is " + found.getProperty(key) + ", this build needs "
                    + expected.getProperty(key) + (key.equals("layout") ? " (a data directory from another version)" : ""));
            }
        }
    }

    public Path root() {
        return root;
    }

    /** The directory to name in messages: the data directory a history view was assembled for, else {@link #root}. */
    public Path shownAs() {
        return shownAs;
    }

    public Path snapshots() {
        return root.resolve("snapshots");
    }

    /** The commands journal. The caller closes it. */
    public SingleChronicleQueue commands() {
        return queue("commands", COMMANDS_SOURCE_ID);
    }

    /** The events queue. The caller closes it. */
    public SingleChronicleQueue events() {
        return queue("events", EVENTS_SOURCE_ID);
    }

    /** A gateway's own directory, {@code gateways/<id>/} (its sequence numbers, sent messages, logs), created when missing. */
    public Path gatewayDir(final int gatewayId) {
        if (gatewayId < 1 || gatewayId > MAX_GATEWAY_ID) {
            throw new IllegalArgumentException("gateway id must be 1.." + MAX_GATEWAY_ID + ", not " + gatewayId);
        }
        final Path dir = root.resolve("gateways").resolve(Integer.toString(gatewayId));
        try {
            Files.createDirectories(dir);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot create " + dir + ": " + e.getMessage(), e);
        }
        return dir;
    }

    /**
     * A gateway's store of every FIX message it sent (for resends and restarts). Its source id is
     * 100 + the gateway id. The caller closes it.
     */
    public SingleChronicleQueue gatewayOutbound(final int gatewayId) {
        final Path dir = gatewayDir(gatewayId).resolve("outbound");
        return build(SingleChronicleQueueBuilder.single(dir.toFile()).rollCycle(ROLL_CYCLE).sourceId(100 + gatewayId));
    }

    /**
     * A gateway's return-path hop times ({@link ReturnHops}); source id 200 + the gateway id. Opened
     * read-only when this directory is. The caller closes it.
     */
    public SingleChronicleQueue gatewayReturns(final int gatewayId) {
        final Path gateway = readOnly ? root.resolve("gateways").resolve(Integer.toString(gatewayId)) : gatewayDir(gatewayId);
        final Path dir = gateway.resolve("returns");
        return build(SingleChronicleQueueBuilder.single(dir.toFile()).rollCycle(ROLL_CYCLE).sourceId(200 + gatewayId).readOnly(readOnly));
    }

    /** The ids of the gateways that wrote return-path hop times here, ascending. */
    public int[] gatewaysWithReturns() {
        final Path gateways = root.resolve("gateways");
        if (!Files.isDirectory(gateways)) {
            return new int[0];
        }
        try (java.util.stream.Stream<Path> dirs = Files.list(gateways)) {
            return dirs.filter(d -> Files.isDirectory(d.resolve("returns"))).map(d -> d.getFileName().toString())
                .filter(name -> name.matches("[0-9]{1,3}")).mapToInt(Integer::parseInt).filter(id -> id >= 1 && id <= MAX_GATEWAY_ID)
                .sorted().toArray();
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot list " + gateways + ": " + e.getMessage(), e);
        }
    }

    private SingleChronicleQueue queue(final String name, final int sourceId) {
        if (view) {
            // Chronicle warns that a read-only queue without metadata lists its folder instead, which is what a view wants.
            System.setProperty("org.slf4j.simpleLogger.log." + SingleChronicleQueueBuilder.class.getName(), "error");
        }
        final SingleChronicleQueueBuilder builder = SingleChronicleQueueBuilder.single(root.resolve(name).toFile()).rollCycle(ROLL_CYCLE)
            .sourceId(sourceId).readOnly(readOnly);
        return build(clock == null ? builder : builder.timeProvider(clock));
    }

    /**
     * Builds the queue and, unless read-only, releases its write and append locks when the process holding them is gone. A
     * process killed with kill -9 in the middle of an append leaves them set, and Chronicle asks whether their holder lives
     * only once its lock timeout (10 s) has passed, so a writer restarted after such a kill would stall that long at its first
     * append. A live holder keeps its locks. Processes that share a data directory must share a pid namespace.
     */
    private static SingleChronicleQueue build(final SingleChronicleQueueBuilder builder) {
        final SingleChronicleQueue queue = builder.build();
        if (!builder.readOnly()) {
            try (TableStoreWriteLock write = new TableStoreWriteLock(queue.metaStore(), Pauser::balanced, 0L);
                 TableStoreWriteLock append = new TableStoreWriteLock(queue.metaStore(), Pauser::balanced, 0L,
                     TableStoreWriteLock.APPEND_LOCK_KEY)) {
                write.forceUnlockIfProcessIsDead();
                append.forceUnlockIfProcessIsDead();
            }
        }
        return queue;
    }

    /**
     * This data directory with its queues on another clock, which decides when they roll to a new
     * day's file: for tests of the day roll. Nothing in the running system sets it.
     */
    public DataDirectory withClock(final TimeProvider clock) {
        return new DataDirectory(root, clock, readOnly, view);
    }
}
