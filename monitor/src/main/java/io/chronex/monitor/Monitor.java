package io.chronex.monitor;

import io.chronex.api.Command;
import io.chronex.api.EngineConfig;
import io.chronex.api.SymbolSpec;
import io.chronex.engine.MatchingEngine;
import io.chronex.monitor.web.WebServer;
import io.chronex.queues.ArchivedCycles;
import io.chronex.queues.CommandTail;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.DecodeStatus;
import io.chronex.queues.EventTail;
import io.chronex.queues.FailedEventsFile;
import io.chronex.queues.GatewaySessionsFile;
import io.chronex.queues.Hops;
import io.chronex.queues.JournalConfig;
import io.chronex.queues.OutputFile;
import io.chronex.queues.QueueGap;
import io.chronex.queues.ReturnHops;
import io.chronex.queues.SnapshotFiles;
import io.chronex.queues.book.Books;
import io.chronex.queues.cluster.ClusterConfig;
import io.chronex.runtime.Args;
import io.chronex.runtime.ConfigYaml;
import io.chronex.runtime.StorageGuard;
import io.chronex.runtime.Tool;
import io.chronex.runtime.tls.TlsIdentity;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingMillisIdleStrategy;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/**
 * bin/monitor: a read-only live view of a data directory. Its own tailers on the commands journal
 * and the events queue (opened read-only, so it cannot append), the pid files and failed-events
 * records of the engine and gateways (read, never locked); one status block per interval, or one
 * block of everything there with --once.
 */
public final class Monitor implements AutoCloseable {
    static final String USAGE = """
        Usage: bin/monitor --data-dir DIR [--http HOST:PORT] [--interval 1s] [--once] [--config FILE] [--alert-backlog-ms 1000]
                           [--alert-p99-ms 50] [--hlog FILE] [--storage-reserve SIZE] [--cluster FILE]
                           [--tls-cert PEM --tls-key PEM | --tls-keystore FILE --tls-password-file FILE]

        Reads DIR's commands and events queues read-only (it never appends, creates or locks anything
        there) and prints a status block: per-hop latency percentiles (last interval, last minute, since
        start), throughput, backlog, accepted and rejected commands, operator commands, trades and notional,
        every symbol's best bid and ask, the engine's and gateways' liveness, each gateway's FIX sessions,
        free space on the data directory's filesystem, and alerts (a stretch of either queue that cannot be
        read although the queue goes on is one).

          --http HOST:PORT      serve a live page instead of printing blocks: http://HOST:PORT/ (charts, books, alerts), plus
                                /api/state (the same figures as JSON) and /metrics (Prometheus text); port 0 picks a free
                                port; prints the address. 127.0.0.1 keeps it on this host; 0.0.0.0 serves every interface
          --tls-cert PEM, --tls-key PEM
                                serve the page over TLS (https://) with this certificate chain (PEM, the server's
                                certificate first) and unencrypted PKCS#8 private key (BEGIN PRIVATE KEY)
          --tls-keystore FILE, --tls-password-file FILE
                                the same from a PKCS#12 or JKS key store holding one private key, its password the first
                                line of FILE (a password on the command line would show in ps)
          --http-host NAMES     host names (comma-separated) the page may be reached by besides IP addresses and localhost;
                                a request for any other Host gets 421 (a hostile page cannot read it by DNS rebinding)
          --interval T          print a block every T (500ms, 1s, 2s...; default 1s), over the last interval, the last
                                minute and since start
          --once                read what is there, print one block of everything read and exit 0 (scripts, CI);
                                exit 1 when a stretch of either queue cannot be read although the queue goes on
          --config FILE         the engine configuration, for symbol names and price scales, only while DIR's journal
                                records none (the engine's first start records it; a FILE that differs from the
                                journal's is said on standard error and the journal's used)
          --alert-backlog-ms N  alert when the oldest unanswered command has waited longer (default 1000)
          --alert-p99-ms N      alert when any hop's p99 over the last interval is above N ms (default 50; 0: off;
                                not with --once)
          --hlog FILE           also write each interval's per-hop histograms to FILE, an HdrHistogram interval log
                                (one tag per hop: gateway, journal, match, events, total), for HistogramLogProcessor
          --storage-reserve SIZE the free space the engine and gateways keep (their --storage-reserve; default 256MiB):
                                alert below it (gateways refuse new orders there) or when the current rate reaches it
                                within 10 minutes
          --cluster FILE        also show the cluster FILE describes (config/cluster.yaml), as bin/cluster-status does: each
                                member's role, term, commit position, election state and lag behind the leader, asked of each
                                member over the network (its status port, basePort+5) on a thread of the monitor's own; alert
                                when no member leads or a member does not answer
        """;
    /**
     * Default of --alert-p99-ms: well above what any hop shows in steady state on our 2-core machines (interval p99s of
     * 1-4 ms, docs/monitor.md), so it does not cry wolf there, and far below the 1 s backlog alert: 50 ms at p99 means
     * one command in a hundred waited that long somewhere (a GC or scheduling stall, a backlog being answered).
     */
    static final long DEFAULT_ALERT_P99_MS = 50;
    /**
     * How long the monitor sleeps once it has read everything there. It reads in bursts: nothing it shows needs a
     * result sooner, and waking for each one, as a spin-yield-park back-off does under a steady flow, kept it busy on
     * most of a core and slowed the engine's journal hop on a 2-core machine (bin/bench-monitor-cost, performance.md).
     */
    static final long POLL_MILLIS = 10;
    /** Excerpts read per queue between looks at the clock, so a big history does not delay a block for long. */
    private static final int BATCH = 10_000;
    /** Pause between the steps of an interval's end (at most; a hundredth of the interval when that is shorter). */
    private static final long MAX_PAUSE_NANOS = 1_000_000;

    private final DataDirectory data;
    private final Map<Integer, SymbolSpec> symbols;
    /** The model, and the symbols when the journal records a configuration. */
    private final CommandTail.Handler commandHandler = new CommandTail.Handler() {
        @Override
        public void onCommand(final long journalIndex, final DecodeStatus status, final Command command, final Hops hops) {
            model.onCommand(journalIndex, status, command, hops);
        }

        @Override
        public void onConfiguration(final long journalIndex) {
            configurationRecorded();
        }
    };
    private final long alertBacklogNanos;
    private final long alertP99Nanos;
    private final MonitorModel model;
    /** Whether the data directory was looked at for archived days (once, when both queues are first open). */
    private boolean archiveLooked;
    /** Each gateway's sessions file as read for the previous block, for the counts in the interval. */
    private final Map<Integer, GatewaySessionsFile.Snapshot> sessionsBefore = new HashMap<>();
    private final List<SingleChronicleQueue> opened = new ArrayList<>();
    /** Return-record readers by gateway id. */
    private final Map<Integer, ReturnHops.Cursor> returns = new TreeMap<>();
    private CommandTail commands;
    /** The commands journal once opened (null before): snapshots are checked against its commands. */
    private SingleChronicleQueue commandsQueue;
    private EventTail events;
    private SingleChronicleQueue eventsQueue;
    /** The filesystem under the data directory; its reserve is --storage-reserve, the writers' default unless said. */
    private Storage storage;
    /** What {@link #damage()} found when the last view was made. */
    private List<QueueGap> lastDamage = List.of();
    /** The snapshot check's own reader of the events. */
    private EventTail checkTail;
    private SnapshotCheck snapshotCheck;
    private HopLog hopLog;
    private WebServer web;
    private final History history = new History();
    /** The cluster's members' state (--cluster), as each view last found it; null on a single host. */
    private ClusterReader cluster;
    /** The market-data publisher's status file, read with each view. */
    private final PublisherView.Reader publisher;

    public Monitor(final DataDirectory data, final Map<Integer, SymbolSpec> symbols, final long alertBacklogNanos) {
        this(data, symbols, alertBacklogNanos, 0, 1_000_000_000L);
    }

    /** With the hop p99 alert ({@code alertP99Nanos}, 0: off) and a last-minute window fitted to {@code intervalNanos}. */
    public Monitor(final DataDirectory data, final Map<Integer, SymbolSpec> symbols, final long alertBacklogNanos, final long alertP99Nanos,
                   final long intervalNanos) {
        this.data = data;
        this.symbols = symbols;
        this.alertBacklogNanos = alertBacklogNanos;
        this.alertP99Nanos = alertP99Nanos;
        this.model = new MonitorModel(HopLatencies.windowIntervals(intervalNanos));
        this.storage = new Storage(data.root(), StorageGuard.DEFAULT_RESERVE);
        this.publisher = new PublisherView.Reader(data.root());
    }

    /** The reserve the writers keep (their --storage-reserve): below it the monitor alerts, and says when it will be reached. */
    void storageReserve(final long reserve) {
        storage = new Storage(data.root(), reserve);
    }

    public static void main(final String[] argv) {
        Tool.run("monitor", USAGE, () -> run(argv, System.out));
    }

    /** Parses the command line and runs; returns the exit code (for tests: --once returns after one block). */
    public static int run(final String[] argv, final PrintStream out) throws Exception {
        final Args args = Args.parse(argv, Set.of("--data-dir", "--http", "--http-host", "--interval", "--config", "--alert-backlog-ms",
                "--alert-p99-ms", "--hlog", "--storage-reserve", "--cluster", "--tls-cert", "--tls-key", "--tls-keystore",
                "--tls-password-file"),
            Set.of("--once"), 0);
        final long intervalNanos = interval(args.string("--interval", "1s"));
        final long alertMs = args.number("--alert-backlog-ms", 1000, 0, 86_400_000);
        final long alertP99Ms = args.number("--alert-p99-ms", DEFAULT_ALERT_P99_MS, 0, 86_400_000);
        // Read by the page's threads while the monitor's own may add a symbol a configuration change records.
        final Map<Integer, SymbolSpec> symbols = new java.util.concurrent.ConcurrentSkipListMap<>();
        final DataDirectory data = DataDirectory.openReadOnly(args.path("--data-dir", Path.of("data")));
        final EngineConfig config = symbolsFrom(data, args.string("--config", null) == null ? null
            : args.readableFile("--config", "config/engine.yaml"));
        if (config != null) {
            config.symbols().forEach(s -> symbols.put(s.id(), s));
        }
        final Path hlog = OutputFile.option(args, "--hlog");
        final long reserve = StorageGuard.parseSize(args.string("--storage-reserve", "256MiB"));
        final ClusterConfig clusterConfig = args.string("--cluster", null) == null ? null
            : ClusterConfig.load(args.readableFile("--cluster", "config/cluster.yaml"));
        final InetSocketAddress http = args.string("--http", null) == null ? null : address(args.string("--http", null));
        final TlsIdentity tls = tls(args);
        if (tls != null && http == null) {
            throw new Args.UsageException("--tls-* serve the page over TLS: give --http HOST:PORT too");
        }
        if (http != null && args.flag("--once")) {
            throw new Args.UsageException("--once prints one block and exits: it cannot serve a page (--http)");
        }
        // The log first: its base time must not be later than the histograms' first interval starts (HdrHistogram's log
        // processor skips intervals that start before the log does).
        try (HopLog log = hlog == null ? null : new HopLog(hlog, System.currentTimeMillis());
             Monitor monitor = new Monitor(data, symbols, TimeUnit.MILLISECONDS.toNanos(alertMs), TimeUnit.MILLISECONDS.toNanos(alertP99Ms),
                 intervalNanos)) {
            monitor.hopLog = log;
            if (clusterConfig != null) {
                final NetClusterView asker = new NetClusterView(clusterConfig);
                // --once asks once, now; the live monitor asks on a thread of its own (ClusterPoller says why).
                monitor.cluster = args.flag("--once") ? asker : new ClusterPoller(asker, TimeUnit.NANOSECONDS.toMillis(intervalNanos));
            }
            monitor.storageReserve(reserve);
            if (args.flag("--once")) {
                monitor.lookForSnapshot();
                monitor.readAll();
                monitor.roll();
                out.print(monitor.block(0));
                out.flush();
                // A script must not read a damaged queue's shortened story as the whole of it.
                return monitor.lastDamage.isEmpty() ? 0 : 1;
            }
            if (http == null) {
                monitor.loop(intervalNanos, out);
                return 0;
            }
            final String names = args.string("--http-host", "");
            try (WebServer web = serve(http, java.util.Arrays.stream(names.split(",")).map(String::trim).filter(n -> !n.isEmpty())
                .collect(java.util.stream.Collectors.toSet()), tls)) {
                monitor.web = web;
                out.println("monitor: serving " + web.scheme() + "://" + web.address().getHostString() + ":" + web.address().getPort()
                    + "/ (live page; /api/state JSON, /metrics Prometheus) for " + data.root());
                out.flush();
                monitor.loop(intervalNanos, out);
            }
            return 0;
        }
    }

    /** HOST:PORT for --http (an IPv6 host in brackets); the port may be 0 (any free port). */
    static InetSocketAddress address(final String text) {
        final int colon = text.lastIndexOf(':');
        final String host = colon <= 0 ? "" : text.substring(0, colon).replaceAll("^\\[(.*)]$", "$1");
        final int port;
        try {
            port = colon < 0 ? -1 : Integer.parseInt(text.substring(colon + 1));
        } catch (final NumberFormatException e) {
            throw new Args.UsageException("--http needs HOST:PORT such as 127.0.0.1:8080, not '" + text + "'");
        }
        if (host.isEmpty() || port < 0 || port > 65_535) {
            throw new Args.UsageException("--http needs HOST:PORT such as 127.0.0.1:8080 (port 0..65535), not '" + text + "'");
        }
        final InetSocketAddress address = new InetSocketAddress(host, port);
        if (address.isUnresolved()) {
            throw new Args.UsageException("--http: unknown host '" + host + "'");
        }
        return address;
    }

    /** The page's TLS identity from --tls-cert/--tls-key or --tls-keystore/--tls-password-file; null for plain http. */
    static TlsIdentity tls(final Args args) {
        final boolean pem = args.string("--tls-cert", null) != null || args.string("--tls-key", null) != null;
        final boolean store = args.string("--tls-keystore", null) != null || args.string("--tls-password-file", null) != null;
        if (!pem && !store) {
            return null;
        }
        if (pem && store) {
            throw new Args.UsageException("give --tls-cert and --tls-key, or --tls-keystore and --tls-password-file, not both");
        }
        try {
            if (pem) {
                return TlsIdentity.fromPem(args.readableFile("--tls-cert", "server.crt"), args.readableFile("--tls-key", "server.key"),
                    java.util.List.of());
            }
            final Path passwordFile = args.readableFile("--tls-password-file", "keystore.password");
            final String password;
            try {
                password = Files.readAllLines(passwordFile).stream().findFirst().orElse("");
            } catch (final IOException e) {
                throw new Args.UsageException("--tls-password-file " + passwordFile + ": " + e.getMessage());
            }
            return TlsIdentity.fromKeyStore(args.readableFile("--tls-keystore", "server.p12"), password.toCharArray(), null,
                java.util.List.of());
        } catch (final TlsIdentity.TlsException e) {
            throw new Args.UsageException(e.getMessage());
        }
    }

    private static WebServer serve(final InetSocketAddress address, final Set<String> hostNames, final TlsIdentity tls) {
        try {
            return new WebServer(address, hostNames, tls);
        } catch (final IOException e) {
            throw new Args.UsageException("--http " + address.getHostString() + ":" + address.getPort() + ": cannot listen there: "
                + e.getMessage());
        }
    }

    /** "500ms", "1s", "2.5s" as nanoseconds, from 10 ms to an hour. */
    static long interval(final String text) {
        return Args.durationNanos("--interval", text, 10_000_000L, 3_600_000_000_000L);
    }

    /** Ends an interval, and writes its histograms to the --hlog file if there is one. */
    private void roll() {
        lookForSnapshot();
        openReturns();
        model.rollInterval();
        if (hopLog != null) {
            hopLog.write(model.latencies());
        }
    }

    /** Prints a block (or publishes the page's state) every interval until the process is stopped (Ctrl-C, SIGTERM). */
    private void loop(final long intervalNanos, final PrintStream out) {
        // Clears the screen, like top, only when a person watches; a log or a pipe gets the blocks one after another.
        final boolean terminal = System.console() != null && out == System.out;
        final IdleStrategy idle = new SleepingMillisIdleStrategy(POLL_MILLIS);
        final long pauseNanos = Math.min(MAX_PAUSE_NANOS, intervalNanos / 100);
        // What is in the queues already is history: read now, shown in the totals, not as this interval's traffic.
        openQueues();
        model.historyThrough(commandsQueue == null ? -1 : commandsQueue.lastIndex(), eventsQueue == null ? -1 : eventsQueue.lastIndex());
        long next = System.nanoTime() + intervalNanos;
        while (!Thread.currentThread().isInterrupted()) {
            final int read = readSome();
            final long now = System.nanoTime();
            if (now - next >= 0) {
                final double seconds = (intervalNanos + (now - next)) / 1e9;
                final Deque<Runnable> steps = intervalSteps(seconds, terminal, out);
                for (Runnable step = steps.poll(); step != null; step = steps.poll()) {
                    step.run();
                    LockSupport.parkNanos(pauseNanos);
                }
                next = now + intervalNanos;
            }
            if (read < BATCH) {
                // Caught up: sleep, then read what came meanwhile in one burst (see POLL_MILLIS).
                idle.idle();
            }
        }
    }

    /**
     * An interval's end as short steps (a hop's sums, one part of the block), which the loop runs with a pause between
     * them and no reading, so the model does not move while a block is built. Done in one go, this work (the histograms'
     * sums and percentiles above all) took 2-19 ms of wall time once a second, more while the JIT warmed it up; on a
     * machine where the monitor shares a core with a process that appends to the journal, that delayed the appends long
     * enough for the engine's back-off to park, and the commands after it waited for its wake-up (bin/bench-monitor-cost,
     * performance.md).
     */
    private Deque<Runnable> intervalSteps(final double seconds, final boolean terminal, final PrintStream out) {
        final Deque<Runnable> steps = new ArrayDeque<>();
        steps.add(this::lookForSnapshot);
        steps.add(() -> {
            openReturns();
            model.endInterval();
        });
        for (int i = 0; i < HopLatencies.Hop.values().length; i++) {
            steps.add(model.latencies()::accumulateNext);
        }
        if (hopLog != null) {
            for (final HopLatencies.Hop hop : HopLatencies.Hop.values()) {
                steps.add(() -> hopLog.write(model.latencies(), hop));
            }
            steps.add(hopLog::flush);
        }
        // The view (process status, backlog age) is read in its own step; the steps showing it are queued by it.
        steps.add(() -> {
            final StatusBlock.View view = view(seconds);
            if (web == null) {
                final StringBuilder block = new StringBuilder(8192).append(terminal ? "\033[H\033[2J" : "\n");
                StatusBlock.parts(model, view).forEach(part -> steps.add(() -> part.accept(block)));
                steps.add(() -> {
                    out.print(block);
                    out.flush();
                });
            } else {
                steps.add(() -> history.add(view.now().toEpochMilli() / 1e3, seconds, model, view.backlogAgeNanos()));
                steps.add(() -> history.alerts().update(StatusBlock.alerts(model, view), view.now().toEpochMilli()));
                final String[] json = new String[1];
                steps.add(() -> json[0] = StateJson.render(model, view, history));
                steps.add(() -> web.publish(json[0], MetricsText.render(model, view)));
            }
        });
        return steps;
    }

    /** Makes the newest engine snapshot, if one is new, the next the books are checked against. */
    private void lookForSnapshot() {
        openQueues();
        if (snapshotCheck != null) {
            snapshotCheck.look();
        }
    }

    /**
     * Reads both queues to their ends: stops after a round in which each tailer reached the end (read
     * less than a batch), so a queue written to without pause cannot keep --once reading for ever.
     */
    void readAll() {
        openReturns();
        while (readSome() >= BATCH) {
            // a tailer stopped at the batch limit, not at the end: read on
        }
    }

    /**
     * Reads up to a batch of each queue: events first, then commands, so a command answered in
     * between is read after its answer and never counted as waiting. Returns the larger of the two
     * counts: below {@link #BATCH}, both reached the end.
     */
    private int readSome() {
        openQueues();
        final int fromEvents = events == null ? 0 : events.poll(model, BATCH);
        final int fromCommands = commands == null ? 0 : commands.poll(commandHandler, BATCH);
        final int forCheck = snapshotCheck == null ? 0 : snapshotCheck.poll(BATCH);
        return Math.max(Math.max(fromEvents, fromCommands), Math.max(forCheck, readReturns()));
    }

    /** The gateways' return records read since the last call (up to BATCH from each), joined to their events by the model. */
    private int readReturns() {
        int most = 0;
        for (final ReturnHops.Cursor cursor : returns.values()) {
            int n = 0;
            while (n < BATCH && cursor.advance()) {
                model.onReturn(cursor.eventsIndex, cursor.eventReadNanos, cursor.socketWriteNanos);
                n++;
            }
            most = Math.max(most, n);
        }
        return most;
    }

    /** Each gateway's return records, once the gateway has created them; looked for once an interval, not on every read. */
    private void openReturns() {
        for (final int id : data.gatewaysWithReturns()) {
            if (!returns.containsKey(id)) {
                final SingleChronicleQueue queue = data.gatewayReturns(id);
                opened.add(queue);
                returns.put(id, new ReturnHops.Cursor(queue.createTailer()));
            }
        }
    }

    /** A read-only reader cannot create a queue: each is opened once a writer has created it. */
    private void openQueues() {
        if (events == null && data.hasQueue("events")) {
            final SingleChronicleQueue queue = data.events();
            opened.add(queue);
            eventsQueue = queue;
            events = new EventTail(queue.createTailer());
            checkTail = new EventTail(queue.createTailer());
            snapshotCheck = new SnapshotCheck(data.snapshots(), checkTail, () -> SnapshotCheck.pinned(data.snapshots(), commandsQueue));
        }
        if (commands == null && data.hasQueue("commands")) {
            final SingleChronicleQueue queue = data.commands();
            opened.add(queue);
            commandsQueue = queue;
            commands = new CommandTail(queue.createTailer());
        }
        if (!archiveLooked && events != null && commandsQueue != null) {
            // Before any event is read: the books must start from the snapshot, not take the first live day's changes first.
            archiveLooked = true;
            booksFromSnapshotIfArchived();
        }
    }

    /**
     * With the journal's first days archived (bin/admin archive) the events left begin part way, and books rebuilt from them
     * alone would lack every order still resting from those days: the books start from the newest snapshot that reads
     * (archive leaves one past the days it moved), and only later level changes are applied.
     */
    private void booksFromSnapshotIfArchived() {
        final ArchivedCycles archived;
        try {
            archived = ArchivedCycles.ofDataDirectory(data.root());
        } catch (final IllegalStateException e) {
            System.err.println("monitor: WARNING: " + e.getMessage() + "; the books are rebuilt from the days left only");
            return;
        }
        if (archived.isEmpty()) {
            return;
        }
        // A snapshot of an archived day (or before) would miss the level changes archived after it: only later ones seed.
        final int lastArchived = archived.cycles().stream().filter(c -> c.queue().equals("commands"))
            .mapToInt(ArchivedCycles.Cycle::cycle).max().orElse(Integer.MIN_VALUE);
        final List<Long> snapshots;
        try {
            snapshots = SnapshotFiles.indices(data.snapshots());
        } catch (final UncheckedIOException e) {
            System.err.println("monitor: WARNING: " + e.getMessage() + "; the books are rebuilt from the days left only");
            return;
        }
        for (final long index : snapshots) {
            if (ArchivedCycles.cycleOfIndex(index) <= lastArchived) {
                break; // newest first: the rest are older still
            }
            try {
                final MatchingEngine engine = MatchingEngine.restore(SnapshotFiles.read(data.snapshots().resolve(SnapshotFiles.name(index)),
                    SnapshotCheck.pinned(data.snapshots(), commandsQueue)));
                final Books seeded = SnapshotCheck.booksOf(engine);
                model.booksFrom(index, seeded);
                snapshotCheck.booksFrom(index, seeded);
                return;
            } catch (final IOException | RuntimeException e) {
                System.err.println("monitor: snapshot 0x" + Long.toHexString(index) + " unreadable (" + e.getMessage()
                    + "), trying an older one");
            } catch (final OutOfMemoryError e) {
                System.err.println("monitor: snapshot 0x" + Long.toHexString(index) + " does not fit this monitor's heap (raise -Xmx"
                    + " in JAVA_OPTS)");
                break;
            }
        }
        System.err.println("monitor: WARNING: the journal's first days are archived and no snapshot after them reads: the books"
            + " shown lack the orders still resting from those days");
    }

    /**
     * The configuration whose symbols the monitor names: the journal's, or the file given when the journal records none yet
     * (a file that differs from the journal's is said loudly, and the journal's used: it is what the engine runs under).
     */
    private static EngineConfig symbolsFrom(final DataDirectory data, final Path given) throws ConfigYaml.ConfigException {
        final JournalConfig journal = JournalConfig.ofDirectory(data);
        try {
            return journal.forTool(data, given);
        } catch (final ConfigYaml.ConfigException e) {
            if (!journal.recorded()) {
                throw e;
            }
            System.err.println("monitor: WARNING: " + e.getMessage() + "\nThe monitor uses the journal's.");
            return journal.latest();
        }
    }

    /** The symbols of the configuration the journal records last, after a record was read (a change may add some). */
    private void configurationRecorded() {
        final EngineConfig latest = JournalConfig.read(commandsQueue, JournalConfig.indexFile(data)).latest();
        if (latest != null) {
            latest.symbols().forEach(s -> symbols.put(s.id(), s));
        }
    }

    /** The status block now, {@code intervalSeconds} being the last interval's length (0 for --once). */
    String block(final double intervalSeconds) {
        return StatusBlock.render(model, view(intervalSeconds));
    }

    /** Everything the faces show besides the model, read now: the processes' status, the backlog's age. */
    private StatusBlock.View view(final double intervalSeconds) {
        final Instant now = Instant.now();
        return new StatusBlock.View(data.root(), now, intervalSeconds,
            model.backlog().oldestAgeNanos(System.nanoTime(), epochNanos()), alertBacklogNanos,
            ProcessStatus.engineOf(data.root()), gateways(), symbols, events == null ? 0 : events.unreadable(),
            alertP99Nanos, snapshotCheck == null ? null : snapshotCheck.last(), storage.read(System.nanoTime()), damage(),
            cluster == null ? null : cluster.read(), publisher.read(now.toEpochMilli()), MoneyView.read(data.root(), now.toEpochMilli()));
    }

    /**
     * Stretches of either queue the monitor's own reading is stuck before while the queue says more follows (bytes
     * zeroed in its file): otherwise a damaged queue would look like a quiet exchange.
     */
    private List<QueueGap> damage() {
        final List<QueueGap> found = new ArrayList<>(2);
        lastDamage = found;
        if (events != null) {
            final QueueGap gap = QueueGap.after(eventsQueue, events.lastIndex());
            if (gap != null) {
                found.add(gap);
            }
        }
        if (commands != null) {
            final QueueGap gap = QueueGap.after(commandsQueue, commands.lastIndex());
            if (gap != null) {
                found.add(gap);
            }
        }
        return found;
    }

    private static long epochNanos() {
        final Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    /** Gateways with a directory under gateways/ (ids as directory names), in id order. */
    private List<StatusBlock.GatewayView> gateways() {
        final Path dir = data.root().resolve("gateways");
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.filter(p -> p.getFileName().toString().matches("[1-9][0-9]{0,2}"))
                .map(p -> {
                    final int id = Integer.parseInt(p.getFileName().toString());
                    final GatewaySessionsFile.Snapshot sessions = GatewaySessionsFile.read(p.resolve("sessions"));
                    return new StatusBlock.GatewayView(id, ProcessStatus.of(p.resolve("gateway.pid")),
                        FailedEventsFile.read(p.resolve("failed-events")), sessions,
                        sessions == null ? sessionsBefore.remove(id) : sessionsBefore.put(id, sessions));
                })
                .sorted(Comparator.comparingInt(StatusBlock.GatewayView::id)).toList();
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot list " + dir + ": " + e.getMessage(), e);
        }
    }

    MonitorModel model() {
        return model;
    }

    @Override
    public void close() {
        if (cluster instanceof ClusterPoller poller) {
            poller.close();
        }
        // The readers first: each holds a mapped chunk of its queue.
        if (events != null) {
            events.close();
            checkTail.close();
        }
        if (commands != null) {
            commands.close();
        }
        opened.forEach(SingleChronicleQueue::close);
    }
}
