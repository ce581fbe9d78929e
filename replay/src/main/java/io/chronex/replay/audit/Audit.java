package io.chronex.replay.audit;

import io.chronex.api.AssetSpec;
import io.chronex.api.EngineConfig;
import io.chronex.api.SymbolSpec;
import io.chronex.engine.MatchingEngine;
import io.chronex.queues.ArchivedCycles;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.EngineConfigFile;
import io.chronex.queues.HistoryView;
import io.chronex.queues.JournalConfig;
import io.chronex.runtime.ConfigYaml;
import io.chronex.queues.OutputFile;
import io.chronex.runtime.Args;
import io.chronex.runtime.Tool;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/** bin/audit SUBCOMMAND: questions answered from a data directory's journals, each ending with one RESULT line. */
public final class Audit {
    static final String USAGE = """
        Usage: bin/audit SUBCOMMAND [options]     (bin/audit SUBCOMMAND --help for one)

        Answers questions from a data directory's journals, reading only (nothing is written there but the
        tool's own indexes in DIR/audit-index). Days bin/admin archive moved away are read back from the
        archive DIR/archived-cycles names, transparently (a compressed day is unpacked into a temporary
        directory for the run).
        Each subcommand ends its output with one machine-readable line: RESULT key=value ...

          config --data-dir DIR [--at TIME]
              the configuration records the journal holds (the one DIR started under, each change after
              it), then the configuration in force now, or at TIME, as YAML.
              RESULT records=N taken=M in_force_index=0x.. in_force_recorded=TIME

          verify --data-dir DIR [--config FILE] [--from INDEX]
              re-executes the whole journal through a fresh engine built from the configuration its journal
              records and compares every result with the recorded one (every field but the timestamps);
              stops at the first difference, printing the command and both results. --config is only for
              a directory whose journal records no configuration (written before it did); otherwise it must
              equal the journal's.
              RESULT verified=N mismatches=M first_mismatch_index=0x.. unanswered=K checkpoints_equal=C
              exit 0: all equal; 1: a difference; 2: a usage error (a wrong FILE among them)

          book SYMBOL --data-dir DIR [--after N | --at TIME] [--depth K] [--orders]
              the symbol's book now, or after the journal's first N commands, or after the last command received
              at or before TIME (UTC, e.g. 2026-11-23T10:31:07.123Z), rebuilt by the engine from the newest
              snapshot before it plus replay: every level (or the best K per side) with quantity and orders.
              RESULT symbol= best_bid= best_ask= bid_levels= ask_levels= bid_orders= ask_orders=

          balances ACCOUNT --data-dir DIR [--after N | --at TIME]
              the account's balance of every asset (available, and held by its open orders) now, after the
              journal's first N commands, or at TIME; one line per asset:
              RESULT account= asset= available= held=

          order --data-dir DIR (--order-id N | --clordid TEXT (--account N | --session NAME)) [--config FILE]
              the whole life of one order, every record in journal order; RESULT records= results_read=
          account N --data-dir DIR [--from TIME] [--to TIME] [--config FILE]
              every record of the account's orders; RESULT records= results_read=
          trades [SYMBOL] --data-dir DIR [--from TIME] [--to TIME] [--config FILE]
              every trade; RESULT trades= volume=
          export --data-dir DIR --format csv|jsonl [--from TIME] [--to TIME] [--out FILE] [--config FILE]
              every order record (new, amend, cancel, fill, reject) with the fields of an order record
              (MiFID II RTS 24 as the model; columns in docs/audit.md); RESULT records=
          dump --data-dir DIR (--commands | --events) [--from INDEX] [--count N] [--format yaml|json]
              the excerpts of a range decoded field by field, through Chronicle Wire; RESULT excerpts=
        """;
    static final String QUERY_USAGE = """
        Usage: bin/audit order   --data-dir DIR (--order-id N | --clordid TEXT (--account N | --session NAME
                                 [--gateway-config FILE])) [--config FILE]
               bin/audit account N --data-dir DIR [--from TIME] [--to TIME] [--config FILE]
               bin/audit trades [SYMBOL] --data-dir DIR [--from TIME] [--to TIME] [--config FILE]
               bin/audit export --data-dir DIR --format csv|jsonl [--from TIME] [--to TIME] [--out FILE] [--config FILE]

        Order records from DIR's journals, in journal order: the command's own record (new, amend,
        cancel, reject: what was asked and how the engine answered), a fill record for each side of each
        trade (with the counterparty's order and account), a cancel record for each order the engine
        cancelled (IOC remainder, kill switch, end of day, self-trade prevention, mass cancel). Times are
        the gateways' receipt times, UTC, to the microsecond; TIME is UTC ISO-8601 (2026-11-24T10:31:07Z),
        --from inclusive, --to exclusive. order --clordid takes the ClOrdID the client sent and follows the
        order through replaces by its engine id; --session names the FIX session (SenderCompID) whose
        account it is, looked up in --gateway-config (default config/gateway.yaml). Symbol names and prices
        in the symbol's units come from the configuration the journal records (for a directory written
        before it did, from --config; ids and ticks without it); a --config that differs is refused.
        Exit 0; 2 on a usage error.
        """;
    static final String DUMP_USAGE = """
        Usage: bin/audit dump --data-dir DIR (--commands | --events) [--from INDEX] [--count N] [--format yaml|json]

        Prints up to N excerpts (default 10) of DIR's commands or events queue from journal index INDEX
        (hex as bin/audit prints it, 0x512c000007cf, or decimal; default the first), each decoded field by
        field through Chronicle Wire: a YAML document each (default) or a JSON object each.
          RESULT excerpts=N
        """;
    static final String VERIFY_USAGE = """
        Usage: bin/audit verify --data-dir DIR [--config FILE] [--from INDEX] [--threads N] [--passes N]

        Re-executes DIR's journal through a fresh engine built from the configuration its journal records
        (the configuration records themselves are answered as the engine answered them, a change taken where
        it was journalled; for a directory whose journal records none, from FILE, by default
        config/engine.yaml, which must be the one DIR was started with) and compares every result with the one recorded in DIR/events,
        byte for byte in the events' encoding with the recorded journal index and timestamps put back.
        Stops at the first difference and prints the command, the differing fields and both results.
        Commands journalled but not answered yet are counted (unanswered=), not verified.
        Checkpoints: at every state hash the engine recorded in a result (bin/engine --checkpoint-every)
        and every snapshot it passes, the re-executed engine's state hash must equal the recorded one; a
        difference stops the run, and a mismatch is placed after the last checkpoint found equal.
        With more than one thread, the journal is cut into parts at snapshots (the engine's, and those
        earlier audit runs kept in DIR/audit-index, one every 1,000,000 commands re-executed), each
        re-executed from its snapshot and required to reach the next part's snapshot's state.
          --from INDEX   compare the results from journal index INDEX on (0x512c000007cf or decimal),
                         starting from the newest snapshot before it (the commands in between are
                         applied, not compared)
          --threads N    parts re-executed at once (default: the number of CPUs; 1: one pass in order)
          --passes N     for benchmarks: the whole verify N times in one JVM, each timed (the later ones
                         with the JIT's compiling done); the last decides the exit (default 1)
          RESULT verified=N mismatches=M first_mismatch_index=0x.. unanswered=K checkpoints_equal=C
        Exit 0 when every result is equal, 1 at a difference, 2 on a usage error.
        """;

    static final String BOOK_USAGE = """
        Usage: bin/audit book SYMBOL --data-dir DIR [--config FILE] [--after N | --at TIME] [--depth K]
                              [--orders]

        The book of SYMBOL (a name or id of the configuration the journal records) now (after the last command in the journal), or as it
        was after the journal's first N commands, or
        after the last command received at or before TIME (UTC, ISO-8601: 2026-11-23T10:31:07.123456Z;
        receipt times are the gateways' wall-clock reads, microseconds or finer). Rebuilt by the engine
        itself: the newest snapshot taken at or before that command, then the journal replayed to it.
        --config only for a directory whose journal records no configuration. Prints every level, asks worst to best then
        bids best to worst (or the best K of each side with --depth K); with --orders, under each level
        its resting orders in queue order (#1 trades first: position, engine order id, account, client
        order id, leaves, cumulative filled, time in force); then
          RESULT symbol= best_bid= best_ask= bid_levels= ask_levels= bid_orders= ask_orders=
        Exit 0; 1 when the journal has fewer than N commands or none by TIME; 2 on a usage error.
        """;

    static final String BALANCES_USAGE = """
        Usage: bin/audit balances ACCOUNT --data-dir DIR [--config FILE] [--after N | --at TIME]

        The account's money as the engine held it: for every asset of the configuration the journal
        records (--config only for a directory whose journal records none) what the account could spend
        (available) and what its open orders held (held),
        in the asset's decimals. Without --after or --at: after the last command in the journal; with
        --after N after the journal's first N commands; with --at TIME (UTC, ISO-8601) after the last
        command received at or before TIME. Rebuilt by the engine itself: the newest snapshot at or
        before that command, then the journal replayed to it. One line per asset:
          RESULT account=<id> asset=<code> available=<amount> held=<amount>
        Exit 0; 1 when the journal has no such point or the engine did not know the account there;
        2 on a usage error.
        """;

    static final String CONFIG_USAGE = """
        Usage: bin/audit config --data-dir DIR [--at TIME]

        The exchange configurations DIR's journal records, one line each: its journal index, when the engine
        recorded it (UTC), whether it is the one the history starts under (initial) or a change, taken or
        refused (and why), and for a change what it changed. Then the configuration in force now, or at TIME
        (UTC, ISO-8601: the last record taken that was recorded at or before TIME; the initial one before
        that), in the engine config's YAML, ready to be used as --config. Reference prices and account
        limits set later by bin/admin are commands, not records: bin/audit dump and account show them.
          RESULT records=N taken=M in_force_index=0x.. in_force_recorded=TIME
        Exit 0; 1 when the journal records no configuration (an engine never started on DIR, or a
        directory written before the journal recorded it); 2 on a usage error.
        """;

    /** The history views opened by the running subcommand, closed (their temporary directories deleted) when it ends. */
    private static final List<HistoryView> VIEWS = new ArrayList<>();

    private Audit() {
    }

    public static void main(final String[] argv) {
        System.exit(exitCode(argv, System.out));
    }

    /** The tool without leaving the JVM (tests): its exit code. */
    public static int exitCode(final String[] argv, final PrintStream out) {
        try {
            return subcommand(argv, out);
        } finally {
            synchronized (VIEWS) {
                VIEWS.forEach(HistoryView::close);
                VIEWS.clear();
            }
        }
    }

    /**
     * The data directory's whole history: its live days and, when bin/admin archive moved past days away, those too, read back
     * from the archive (the order and ClOrdID indexes and kept snapshots stay in DIR/audit-index all the same).
     */
    static DataDirectory history(final String dir) {
        final Path root = Path.of(dir).toAbsolutePath().normalize();
        if (Files.exists(root.resolve(ArchivedCycles.FILE))) {
            try {
                Files.createDirectories(root.resolve("audit-index"));
            } catch (final IOException e) {
                // Read-only media: the indexes are then built in the temporary view and dropped with it.
            }
        }
        final HistoryView view = HistoryView.open(root);
        synchronized (VIEWS) {
            VIEWS.add(view);
        }
        if (view.includesArchive()) {
            System.err.println("note: reading " + root + " with its archived days (" + root.resolve(ArchivedCycles.FILE) + ")");
        }
        return view.data();
    }

    private static int subcommand(final String[] argv, final PrintStream out) {
        final String sub = argv.length == 0 ? "" : argv[0];
        final String[] rest = argv.length == 0 ? argv : Arrays.copyOfRange(argv, 1, argv.length);
        return switch (sub) {
            case "verify" -> Tool.exitCode("audit verify", VERIFY_USAGE, () -> verify(rest, out));
            case "book" -> Tool.exitCode("audit book", BOOK_USAGE, () -> book(rest, out));
            case "balances" -> Tool.exitCode("audit balances", BALANCES_USAGE, () -> balances(rest, out));
            case "order", "account", "trades", "export" -> Tool.exitCode("audit " + sub, QUERY_USAGE, () -> query(sub, rest, out));
            case "dump" -> Tool.exitCode("audit dump", DUMP_USAGE, () -> dump(rest, out));
            case "config" -> Tool.exitCode("audit config", CONFIG_USAGE, () -> config(rest, out));
            case "-h", "--help" -> {
                out.print(USAGE);
                yield 0;
            }
            default -> Tool.exitCode("audit", USAGE, () -> {
                final String subcommands = "verify, book, balances, order, account, trades, export, dump";
                throw new Args.UsageException(sub.isEmpty() ? "name a subcommand (" + subcommands + ")"
                    : "unknown subcommand '" + sub + "' (" + subcommands + ")");
            });
        };
    }

    private static int config(final String[] argv, final PrintStream out) {
        final Args args = Args.parse(argv, Set.of("--data-dir", "--at"), Set.of(), 0);
        final long at = args.string("--at", null) == null ? Long.MAX_VALUE : epochNanos(args.string("--at", null));
        final DataDirectory data = history(args.required("--data-dir", "data/demo-..."));
        final JournalConfig journal = JournalConfig.ofDirectory(data);
        int taken = 0;
        JournalConfig.Entry inForce = null;
        for (final JournalConfig.Entry entry : journal.entries()) {
            out.printf("0x%x  %s  %-7s  %s%n", entry.index(), entry.kind() == null ? "?" : Instant.ofEpochSecond(0, entry.epochNanos()),
                entry.kind() == null ? "?" : entry.kind().name().toLowerCase(Locale.ROOT),
                entry.accepted() ? "taken" : "REFUSED: " + entry.refusal());
            if (entry.change() != null) {
                entry.change().differences().forEach(line -> out.println("    " + line));
            }
            if (entry.accepted()) {
                taken++;
                if (inForce == null || entry.epochNanos() <= at) {
                    inForce = entry;
                }
            }
        }
        if (inForce == null) {
            out.println("the journal of " + data.shownAs() + " records no configuration (no engine has started on it, or it was written"
                + " before the journal recorded one)");
            out.println("RESULT records=" + journal.entries().size() + " taken=0");
            return 1;
        }
        final Instant recorded = Instant.ofEpochSecond(0, inForce.epochNanos());
        out.printf("# in force %s: recorded at journal index 0x%x, %s%s%n", at == Long.MAX_VALUE ? "now" : "at "
            + Instant.ofEpochSecond(0, at), inForce.index(), recorded, at < inForce.epochNanos() ? " (the initial one, in force from the"
            + " journal's start)" : "");
        out.print(EngineConfigFile.text(inForce.config()));
        out.printf("RESULT records=%d taken=%d in_force_index=0x%x in_force_recorded=%s%n", journal.entries().size(), taken,
            inForce.index(), recorded);
        return 0;
    }

    private static int book(final String[] argv, final PrintStream out) throws Exception {
        final Args args = Args.parse(argv, Set.of("--data-dir", "--config", "--after", "--at", "--depth"), Set.of("--orders"), 1);
        final String name = args.operand(0, "SYMBOL");
        final DataDirectory data = history(args.required("--data-dir", "data/demo-..."));
        final Configs configs = configs(args, data);
        final EngineConfig config = configs.latest();
        final SymbolSpec symbol = config.symbols().stream()
            .filter(s -> s.name().equalsIgnoreCase(name) || Integer.toString(s.id()).equals(name)).findFirst()
            .orElseThrow(() -> new Args.UsageException("unknown symbol '" + name + "'; " + configs.source() + " has "
                + config.symbols().stream().map(s -> s.name() + " (" + s.id() + ")").collect(Collectors.joining(", "))));
        final boolean after = args.string("--after", null) != null;
        final boolean atTime = args.string("--at", null) != null;
        if (after && atTime) {
            throw new Args.UsageException("give at most one of --after N (commands) or --at TIME (UTC)");
        }
        final long at = atTime ? epochNanos(args.string("--at", null)) : -1;
        final int depth = args.intNumber("--depth", Integer.MAX_VALUE, 1, Integer.MAX_VALUE);
        // Neither: the book now, after the last command in the journal (as balances does).
        final long count = after ? args.number("--after", 0, 1, Long.MAX_VALUE) : atTime ? -1 : commandsNow(data, configs);
        Verify.checkPinned(data, configs.initial(), configs.source(), out);
        final BookAt.Point point = count == 0 ? null : BookAt.find(data, count, at);
        if (point == null || (after && point.commands() < count)) {
            out.println(after ? "the journal has fewer than " + count + " commands" : atTime ? "no command was received at or before "
                + args.string("--at", null) : "the journal has no command yet");
            return 1;
        }
        out.printf("after command %,d of the journal (index 0x%x, received %s)%n", point.commands(), point.journalIndex(),
            Instant.ofEpochSecond(0, point.receiptEpochNanos()));
        final MatchingEngine engine = new BookAt(configs.initial(), configs.journal()).rebuild(data, point, out);
        if (Arrays.stream(engine.symbolIds()).noneMatch(id -> id == symbol.id())) {
            out.println("symbol " + symbol.name() + " was not known to the engine at that point (a configuration change added it"
                + " later: bin/audit config)");
            return 1;
        }
        BookAt.print(engine, symbol, depth, args.flag("--orders"), out);
        return 0;
    }

    private static int balances(final String[] argv, final PrintStream out) throws Exception {
        final Args args = Args.parse(argv, Set.of("--data-dir", "--config", "--after", "--at"), Set.of(), 1);
        final long account = args.operandNumber(0, "ACCOUNT", 1, Long.MAX_VALUE);
        final DataDirectory data = history(args.required("--data-dir", "data/demo-..."));
        final Configs configs = configs(args, data);
        final EngineConfig config = configs.latest();
        if (config.assets().isEmpty()) {
            throw new Args.UsageException(configs.source() + " has no assets: accounts there hold no money");
        }
        final boolean after = args.string("--after", null) != null;
        final boolean atTime = args.string("--at", null) != null;
        if (after && atTime) {
            throw new Args.UsageException("give at most one of --after N (commands) or --at TIME (UTC)");
        }
        final long at = atTime ? epochNanos(args.string("--at", null)) : -1;
        final long count = after ? args.number("--after", 0, 1, Long.MAX_VALUE) : atTime ? -1 : commandsNow(data, configs);
        Verify.checkPinned(data, configs.initial(), configs.source(), out);
        final BookAt.Point point = BookAt.find(data, count, at);
        if (point == null || (after && point.commands() < count)) {
            out.println(after ? "the journal has fewer than " + count + " commands" : atTime ? "no command was received at or before "
                + args.string("--at", null) : "the journal is empty");
            return 1;
        }
        out.printf("after command %,d of the journal (index 0x%x, received %s)%n", point.commands(), point.journalIndex(),
            Instant.ofEpochSecond(0, point.receiptEpochNanos()));
        final MatchingEngine engine = new BookAt(configs.initial(), configs.journal()).rebuild(data, point, out);
        if (Arrays.binarySearch(engine.accountIds(), account) < 0) {
            out.println("account " + account + " was not known to the engine at that point");
            return 1;
        }
        for (final AssetSpec asset : config.assets()) {
            out.println("RESULT account=" + account + " asset=" + asset.code() + " available="
                + asset.format(engine.available(account, asset.id())) + " held=" + asset.format(engine.held(account, asset.id())));
        }
        return 0;
    }

    /**
     * What a subcommand that rebuilds the engine works under: the configuration the history starts under and the one in force
     * last, from the journal when it records them (--config, if given, must then match), else from --config (by default
     * config/engine.yaml: a directory written before the journal recorded its configuration).
     */
    record Configs(JournalConfig journal, EngineConfig initial, EngineConfig latest, String source) {
    }

    static Configs configs(final Args args, final DataDirectory data) throws ConfigYaml.ConfigException {
        final JournalConfig journal = JournalConfig.ofDirectory(data);
        if (journal.recorded()) {
            final EngineConfig latest = journal.forTool(data, args.string("--config", null) == null ? null
                : args.readableFile("--config", "config/engine.yaml"));
            return new Configs(journal, journal.first().config(), latest, "the journal");
        }
        final Path file = args.readableFile("--config", "config/engine.yaml");
        final EngineConfig config = EngineConfigFile.load(file);
        return new Configs(journal, config, config, file.toString());
    }

    /** How many commands the journal holds now (its excerpts but the configuration records): "now" is after the last of them. */
    private static long commandsNow(final DataDirectory data, final Configs configs) {
        return journalLength(data) - configs.journal().entries().size();
    }

    /** How many excerpts the journal holds now (commands and configuration records). */
    private static long journalLength(final DataDirectory data) {
        try (net.openhft.chronicle.queue.impl.single.SingleChronicleQueue commands = data.commands()) {
            return commands.entryCount();
        }
    }

    private static int query(final String sub, final String[] argv, final PrintStream out) throws Exception {
        final Args args = Args.parse(argv, Set.of("--data-dir", "--config", "--order-id", "--clordid", "--account", "--session",
            "--gateway-config", "--from", "--to", "--format", "--out"), Set.of(), 1);
        // Judged before anything is opened: a refused --out leaves every file as it was.
        final Path file = OutputFile.option(args, "--out");
        final DataDirectory data = history(args.required("--data-dir", "data/demo-..."));
        final EngineConfig config = JournalConfig.ofDirectory(data).forTool(data, args.string("--config", null) == null ? null
            : args.readableFile("--config", "config/engine.yaml"));
        final long from = args.string("--from", null) == null ? Long.MIN_VALUE : epochNanos("--from", args.string("--from", null));
        final long to = args.string("--to", null) == null ? Long.MAX_VALUE : epochNanos("--to", args.string("--to", null));
        final AuditQueries queries = new AuditQueries(config, out);
        switch (sub) {
            case "order" -> {
                final long orderId = args.number("--order-id", 0, 1, Long.MAX_VALUE);
                final String clOrdId = args.string("--clordid", null);
                if ((orderId > 0) == (clOrdId != null)) {
                    throw new Args.UsageException("give one of --order-id N or --clordid TEXT");
                }
                long account = args.number("--account", 0, 1, Long.MAX_VALUE);
                if (clOrdId != null && (account > 0) == (args.string("--session", null) != null)) {
                    throw new Args.UsageException("--clordid needs the order's --account N or its FIX --session NAME (one of them)");
                }
                if (args.string("--session", null) != null) {
                    account = AuditQueries.sessionAccount(args.path("--gateway-config", Path.of("config/gateway.yaml")),
                        args.string("--session", null));
                }
                queries.order(data, orderId, clOrdId, account);
            }
            case "account" -> queries.account(data, args.operandNumber(0, "ACCOUNT", 1, Long.MAX_VALUE), from, to);
            case "trades" -> queries.trades(data, args.operands().isEmpty() ? 0 : symbolId(config, args.operand(0, "SYMBOL")), from, to);
            default -> {
                if (args.string("--format", null) == null) {
                    throw new Args.UsageException("export needs --format csv or --format jsonl");
                }
                final String format = args.choice("--format", null, "csv", "jsonl");
                try (PrintStream target = file == null ? null : new PrintStream(file.toFile(), StandardCharsets.UTF_8)) {
                    final long n = Export.write(data, from, to, format.equals("jsonl"), queries, target == null ? out : target);
                    out.println((file == null ? "" : "wrote " + n + " records to " + file + "\n") + "RESULT records=" + n);
                }
            }
        }
        return 0;
    }

    private static int symbolId(final EngineConfig config, final String name) {
        if (name.matches("[0-9]{1,9}")) {
            return Integer.parseInt(name);
        }
        if (config == null) {
            throw new Args.UsageException("a symbol by name needs --config FILE (or give its id)");
        }
        return config.symbols().stream().filter(s -> s.name().equalsIgnoreCase(name)).findFirst()
            .orElseThrow(() -> new Args.UsageException("unknown symbol '" + name + "'")).id();
    }

    private static int dump(final String[] argv, final PrintStream out) {
        final Args args = Args.parse(argv, Set.of("--data-dir", "--from", "--count", "--format"), Set.of("--commands", "--events"), 0);
        if (args.flag("--commands") == args.flag("--events")) {
            throw new Args.UsageException("give one of --commands or --events");
        }
        final long from = args.string("--from", null) == null ? -1 : journalIndex("--from", args.string("--from", null));
        final long count = args.number("--count", 10, 1, Long.MAX_VALUE);
        final boolean json = "json".equals(args.choice("--format", "yaml", "yaml", "json"));
        final DataDirectory data = history(args.required("--data-dir", "data/demo-..."));
        final long n = new Dump(json, out).run(data, args.flag("--events"), from, count);
        out.println("RESULT excerpts=" + n);
        return 0;
    }

    /** An ISO-8601 UTC instant as epoch nanoseconds. */
    private static long epochNanos(final String option, final String text) {
        try {
            final Instant instant = Instant.parse(text);
            return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
        } catch (final DateTimeParseException e) {
            throw new Args.UsageException(option + " needs a UTC time such as 2026-11-23T10:31:07.123Z, not '" + text + "'");
        }
    }

    /** A journal index as the tools print it (0x512c000007cf) or in decimal. */
    private static long journalIndex(final String option, final String text) {
        try {
            return text.startsWith("0x") ? Long.parseUnsignedLong(text.substring(2), 16) : Long.parseLong(text);
        } catch (final NumberFormatException e) {
            throw new Args.UsageException(option + " needs a journal index (0x512c000007cf or decimal), not '" + text + "'");
        }
    }

    /** --at's ISO-8601 UTC instant as epoch nanoseconds. */
    private static long epochNanos(final String text) {
        return epochNanos("--at", text);
    }

    private static int verify(final String[] argv, final PrintStream out) throws Exception {
        final Args args = Args.parse(argv, Set.of("--data-dir", "--config", "--from", "--threads", "--passes"),
            Set.of(), 0);
        final int threads = args.intNumber("--threads", Runtime.getRuntime().availableProcessors(), 1, 256);
        final DataDirectory data = history(args.required("--data-dir", "data/demo-..."));
        final Configs configs = configs(args, data);
        Verify.checkPinned(data, configs.initial(), configs.source(), out);
        final long from = args.string("--from", null) == null ? -1 : journalIndex("--from", args.string("--from", null));
        final int passes = args.intNumber("--passes", 1, 1, 1_000);
        Verify.Outcome outcome = null;
        for (int pass = 1; pass <= passes; pass++) {
            outcome = new Verify(configs.initial(), configs.journal(), out, threads).run(data, from);
            final double seconds = outcome.nanos() / 1e9;
            final long executed = outcome.verified() + outcome.mismatches() + outcome.replayed();
            out.printf(Locale.ROOT, "%sre-executed %,d commands (%,d compared) in %.3f s (%.2f M commands/s, reading both queues; %s);"
                + " %d checkpoints equal%n", passes == 1 ? "" : "pass " + pass + ": ", executed, outcome.verified() + outcome.mismatches(),
                seconds, executed / Math.max(seconds, 1e-9) / 1e6, outcome.parts() == 1 ? "one part"
                    : outcome.parts() + " parts cut at snapshots, on " + outcome.threads() + " threads", outcome.checkpointsEqual());
            if (outcome.mismatches() > 0) {
                break;
            }
        }
        out.println(outcome.resultLine());
        return outcome.mismatches() == 0 ? 0 : 1;
    }
}
