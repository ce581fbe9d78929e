package io.chronex.replay;

import io.chronex.api.AssetSpec;
import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.api.EngineConfig;
import io.chronex.api.Result;
import io.chronex.api.SelfTradePrevention;
import io.chronex.api.SymbolSpec;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.CommandText;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.DecodeStatus;
import io.chronex.queues.EngineConfigFile;
import io.chronex.queues.JournalConfig;
import io.chronex.queues.EventCodec;
import io.chronex.queues.EventHeader;
import io.chronex.queues.Hops;
import io.chronex.runtime.Args;
import io.chronex.runtime.ConfigYaml;
import io.chronex.runtime.StorageGuard;
import io.chronex.runtime.Tool;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;

import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Pattern;

/** bin/admin: appends one operator command to the journal and prints the engine's answer to it. */
public final class Admin {
    static final String USAGE = """
        Usage: bin/admin --data-dir DIR [--config FILE] [--timeout 5s] [--storage-reserve SIZE] COMMAND ...
               bin/admin --data-dir DIR [--config FILE] [--timeout 5s] [--storage-reserve SIZE] --script FILE

        Appends one operator command to DIR/commands (the journal; gateway id 0, session 0, with the
        wall-clock receipt time), then waits for the engine's answer in DIR/events and prints it.
        Exit 0: accepted. 1: refused by the engine, or no answer within the timeout (the command stays
        journalled and runs when an engine starts). 2: a mistake on the command line; nothing journalled.

        Commands (SYMBOL: a name from the engine config or its numeric id; ACCOUNT: a number):
          halt SYMBOL                  stop new orders, replaces and moves in a symbol (cancels still work)
                                         e.g. bin/admin --data-dir data halt ACME
          resume SYMBOL                lift a halt
                                         e.g. bin/admin --data-dir data resume ACME
          kill-switch ACCOUNT on|off   on: cancel every order of the account and block its new ones; off: lift it
                                         e.g. bin/admin --data-dir data kill-switch 1 on
          end-of-day [SYMBOL]          expire DAY orders in one symbol, or in every symbol
                                         e.g. bin/admin --data-dir data end-of-day
          snapshot                     ask the engine process to write a snapshot after this command
                                         e.g. bin/admin --data-dir data snapshot
          reference-price SYMBOL PRICE the centre of the symbol's price band; PRICE a decimal in the symbol's price scale
                                         e.g. bin/admin --data-dir data reference-price ACME 25.50
          limits ACCOUNT KEY=VALUE...  replace ALL of an account's limits (creating the account if new); all four
                                       keys are required, 0 = no limit:
                                         maxOrderQuantity=LOTS maxOrderNotional=TICKSxLOTS maxOpenOrders=N
                                         selfTradePrevention=OFF|CANCEL_RESTING|CANCEL_INCOMING|CANCEL_BOTH
                                         e.g. bin/admin --data-dir data limits 7 maxOrderQuantity=1000 \\
                                                maxOrderNotional=0 maxOpenOrders=50 selfTradePrevention=OFF
          deposit ACCOUNT ASSET AMOUNT --ref ID    money into an account (ASSET: a code from the engine config;
                                       AMOUNT: a decimal in the asset's units); answered with the new balance
                                         e.g. bin/admin --data-dir data deposit 1 USD 10000.00 --ref 1001
          withdraw ACCOUNT ASSET AMOUNT --ref ID   money out, refused beyond what the account has available
                                         e.g. bin/admin --data-dir data withdraw 1 USD 250.00 --ref 1002
          adjust ACCOUNT ASSET AMOUNT --ref ID     a signed correction, refused if available would go below 0
                                         e.g. bin/admin --data-dir data adjust 1 USD -0.50 --ref 1003
                                       ID: a positive whole number, each applied once across the exchange,
                                       so a command retried after a timeout cannot move money twice

          archive --before DATE [--to ARCHIVE] [--compress] [--dry-run]
                                       move whole past days of the journal and the events queue to an archive
                                       (default DIR/archive), once the engine's newest snapshot is past them; refused
                                       (exit 2, saying what it needs) otherwise. bin/admin archive --help for the rules
                                         e.g. bin/admin --data-dir data archive --before 2026-11-28 --compress

          --data-dir DIR   an existing data directory (default ./data); a missing one is an error, never created
          --config FILE    not needed once the engine has started on DIR: symbol names, asset codes and scales
                           come from the configuration its journal records, and a FILE that differs from it is
                           refused. Before that (or for a directory written before the journal recorded it), the
                           engine config to use (default config/engine.yaml under the project root)
          --ref ID         the reference of a deposit, withdraw or adjust (required there, refused elsewhere)
          --script FILE    one command per line (as above, --ref on its line; '#' starts a comment), every line
                           checked before any is journalled, then each journalled and answered in turn;
                           exit 0 only if every one was accepted (e.g. config/demo-funding.admin)
          --timeout T      how long to wait for the engine's answer: 5s, 500ms (default 5s)
          --storage-reserve SIZE  the reserve the engine and gateways keep (default 256MiB): an operator command
                           goes through while the gateways refuse orders, and is refused (exit 1, nothing
                           journalled) only below a quarter of it, where the engine pauses
          --help           this text
        """;

    private static final Pattern DECIMAL = Pattern.compile("[0-9]+(\\.[0-9]+)?");
    private static final Pattern WHOLE = Pattern.compile("[0-9]+");
    private static final String COMMANDS = "halt, resume, kill-switch, end-of-day, snapshot, reference-price, limits, deposit, "
        + "withdraw, adjust";
    private static final Map<String, CommandType> MONEY = Map.of("deposit", CommandType.DEPOSIT, "withdraw", CommandType.WITHDRAW,
        "adjust", CommandType.ADJUST);
    private static final List<String> LIMIT_KEYS = List.of("maxOrderQuantity", "maxOrderNotional", "maxOpenOrders",
        "selfTradePrevention");

    private Admin() {
    }

    /** Where the command {@code archive} is (the first operand, after the options and their values), or -1. */
    private static int archiveAt(final String[] argv) {
        final Set<String> valued = Set.of("--data-dir", "--config", "--timeout", "--storage-reserve", "--ref", "--script", "--before",
            "--to");
        for (int i = 0; i < argv.length; i++) {
            if (valued.contains(argv[i])) {
                i++;
            } else if (!argv[i].startsWith("-")) {
                return argv[i].equals("archive") ? i : -1;
            }
        }
        return -1;
    }

    /** Where the engine config comes from; loaded only when a command names a symbol or a price. */
    @FunctionalInterface
    interface ConfigSource {
        EngineConfig load() throws ConfigYaml.ConfigException;
    }

    public static void main(final String[] argv) {
        Tool.run("admin", archiveAt(argv) >= 0 ? Archive.USAGE : USAGE, () -> run(argv, System.out));
    }

    /** The whole tool without exiting the JVM: its exit code. */
    static int run(final String[] argv, final PrintStream out) throws Exception {
        final int archive = archiveAt(argv);
        if (archive >= 0) {
            final List<String> rest = new java.util.ArrayList<>(List.of(argv));
            rest.remove(archive);
            return Archive.run(rest.toArray(String[]::new), out);
        }
        final Args args = Args.parse(argv, Set.of("--data-dir", "--config", "--timeout", "--storage-reserve", "--ref", "--script"),
            Set.of(), 16);
        final long reserve = StorageGuard.parseSize(args.string("--storage-reserve", "256MiB"));
        final long timeoutNanos = duration(args.string("--timeout", "5s"));
        final Path configFile = args.path("--config",
            Path.of(System.getProperty("chronex.root", ".")).resolve("config/engine.yaml"));
        final Path dir = args.path("--data-dir", Path.of("data")).toAbsolutePath().normalize();
        if (!Files.isRegularFile(dir.resolve(DataDirectory.MARKER))) {
            throw new Args.UsageException(dir + " is not a chronex data directory (no " + DataDirectory.MARKER
                + "); give the --data-dir the engine runs on. bin/admin never creates one.");
        }
        // Everything is parsed and checked before the journal is appended to: a usage error journals nothing. Names and
        // scales come from the journal's configuration; a --config that differs from it is refused (a swapped file would
        // halt the wrong symbol).
        final boolean configGiven = args.string("--config", null) != null;
        final EngineConfig[] loaded = new EngineConfig[1];
        final ConfigSource config = () -> loaded[0] != null ? loaded[0] : (loaded[0] = loadConfig(dir, configFile, configGiven));
        final String script = args.string("--script", null);
        if (script != null && (!args.operands().isEmpty() || args.string("--ref", null) != null)) {
            throw new Args.UsageException("--script FILE takes the commands from FILE: give no COMMAND or --ref beside it");
        }
        final List<Command> commands = script != null ? parseScript(Path.of(script), config)
            : List.of(parse(args.operands(), args.string("--ref", null), config));
        final DataDirectory data = DataDirectory.openForTool(dir);
        final StorageGuard storage = StorageGuard.forDirectory(dir, reserve);
        if (storage.recheck() == StorageGuard.Level.EXHAUSTED) {
            throw new Tool.Failure("not journalled: " + storage.describe() + "; below a quarter of it nothing is appended (free"
                + " space first)");
        }
        int exit = 0;
        for (final Command command : commands) {
            exit = Math.max(exit, answer(data, command, timeoutNanos, config, out));
        }
        return exit;
    }

    /** Journals one command, waits for its answer and prints it: 0 accepted, 1 refused. @throws Tool.Failure on no answer */
    private static int answer(final DataDirectory data, final Command command, final long timeoutNanos, final ConfigSource config,
                              final PrintStream out) throws ConfigYaml.ConfigException {
        final Result result = new Result();
        final long index = appendAndAwait(data, command, timeoutNanos, result);
        if (index < 0) {
            throw new Tool.Failure("no engine answered within " + describe(timeoutNanos) + ": is bin/engine running on this data "
                + "directory? The command is journalled (index " + Long.toHexString(~index)
                + ") and will be executed when the engine starts");
        }
        final AssetSpec asset = isMoney(command.type) ? config.load().asset(command.symbol) : null;
        final String what = command.type + (asset != null ? describeMoney(command, asset) : describeTarget(command));
        if (result.isRejected()) {
            out.println("refused: " + what + ": " + result.rejectReason + (asset != null ? balance(result, asset) : "")
                + " (journal index " + Long.toHexString(index) + ")");
            return 1;
        }
        out.println("accepted: " + what + (result.affectedOrders > 0 ? ", " + result.affectedOrders + " orders cancelled" : "")
            + (asset != null ? balance(result, asset) : "") + " (journal index " + Long.toHexString(index) + ")");
        return 0;
    }

    /** The journal's configuration when it records one (a given file must then match), else the file. */
    private static EngineConfig loadConfig(final Path dir, final Path file, final boolean given) throws ConfigYaml.ConfigException {
        final DataDirectory data = DataDirectory.openReadOnly(dir);
        final JournalConfig journal = JournalConfig.ofDirectory(data);
        if (journal.recorded()) {
            return journal.forTool(data, given ? file : null);
        }
        return loadConfig(file);
    }

    private static EngineConfig loadConfig(final Path file) throws ConfigYaml.ConfigException {
        if (!Files.isReadable(file)) {
            throw new Args.UsageException("cannot read the engine config " + file + " (needed for symbol names and price scales; "
                + "give --config)");
        }
        return EngineConfigFile.load(file);
    }

    /**
     * The operator as the journal records it: user@host of the process that issued the command, in
     * the characters a journalled id may have (0x21..0x7E), at most {@link CommandText#MAX_LENGTH}.
     */
    static String operator() {
        String host;
        try {
            host = java.net.InetAddress.getLocalHost().getHostName();
        } catch (final java.io.IOException e) {
            host = System.getenv().getOrDefault("HOSTNAME", "unknown-host");
        }
        final String who = (System.getProperty("user.name", "unknown-user") + "@" + host).replaceAll("[^\\x21-\\x7E]", "_");
        return who.length() <= CommandText.MAX_LENGTH ? who : who.substring(0, CommandText.MAX_LENGTH);
    }

    /**
     * Appends the command and waits for the events excerpt naming its journal index. Returns the index,
     * or its complement (negative) when no answer came within the timeout.
     */
    static long appendAndAwait(final DataDirectory data, final Command command, final long timeoutNanos, final Result result) {
        try (SingleChronicleQueue commands = data.commands(); SingleChronicleQueue events = data.events()) {
            // Positioned before the append, so an answer written the moment after cannot be missed.
            final ExcerptTailer tailer = events.createTailer().toEnd();
            final ExcerptAppender appender = commands.createAppender();
            append(appender, command, new Hops());
            final long index = appender.lastIndexAppended();
            final EventHeader header = new EventHeader();
            final long deadline = System.nanoTime() + timeoutNanos;
            while (true) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (dc.isPresent()) {
                        if (EventCodec.read(dc.wire().bytes(), header, result) == DecodeStatus.OK && header.commandIndex == index) {
                            return index;
                        }
                        continue;
                    }
                }
                if (System.nanoTime() - deadline > 0) {
                    return ~index;
                }
                LockSupport.parkNanos(1_000_000L);
            }
        }
    }

    /**
     * The commands of a script file, one per line ('#' to the end of a line is a comment; a line's --ref ID
     * goes with it); every line is checked first, a mistake is a usage error naming FILE:LINE.
     */
    static List<Command> parseScript(final Path file, final ConfigSource config) throws ConfigYaml.ConfigException {
        final List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (final java.io.IOException e) {
            throw new Args.UsageException("cannot read --script " + file + ": " + e.getMessage());
        }
        final List<Command> commands = new java.util.ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            final int hash = lines.get(i).indexOf('#');
            final String line = (hash < 0 ? lines.get(i) : lines.get(i).substring(0, hash)).trim();
            if (line.isEmpty()) {
                continue;
            }
            final List<String> words = new java.util.ArrayList<>(List.of(line.split("\\s+")));
            String reference = null;
            final int ref = words.indexOf("--ref");
            try {
                if (ref >= 0) {
                    if (ref + 1 >= words.size()) {
                        throw new Args.UsageException("--ref needs a value");
                    }
                    reference = words.get(ref + 1);
                    words.subList(ref, ref + 2).clear();
                }
                commands.add(parse(words, reference, config));
            } catch (final Args.UsageException e) {
                throw new Args.UsageException(file + ":" + (i + 1) + ": " + e.getMessage());
            }
        }
        if (commands.isEmpty()) {
            throw new Args.UsageException(file + " has no commands");
        }
        return commands;
    }

    /**
     * Journals a script's commands into a data directory without waiting for answers: for tests and tools that
     * fund accounts before an engine starts (it answers them first when it does).
     */
    public static void journal(final DataDirectory data, final Path script, final Path engineConfig) throws ConfigYaml.ConfigException {
        final EngineConfig config = loadConfig(engineConfig);
        final Hops hops = new Hops();
        try (SingleChronicleQueue commands = data.commands()) {
            final ExcerptAppender appender = commands.createAppender();
            for (final Command command : parseScript(script, () -> config)) {
                append(appender, command, hops.clear());
            }
        }
    }

    /** Journals one operator command with its receipt times and the operator's name. */
    private static void append(final ExcerptAppender appender, final Command command, final Hops hops) {
        // Gateway 0 and session 0 mark a command that no FIX session sent: the audit tells it from client orders by this.
        hops.gatewayReadNanos = System.nanoTime();
        final Instant now = Instant.now(); // once per command: nanosecond resolution where the OS gives it
        hops.receiptEpochNanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
        // Who asked, journalled with the command: an audit of a halt or a kill switch names the operator.
        CommandCodec.append(appender, command, hops, new CommandText().set(null, operator()));
    }

    /** Turns the operands after the options into a command. @throws Args.UsageException saying what is wrong */
    static Command parse(final List<String> words, final ConfigSource config) throws ConfigYaml.ConfigException {
        return parse(words, null, config);
    }

    /** As {@link #parse(List, ConfigSource)}, with the --ref a money command needs (null when not given). */
    static Command parse(final List<String> words, final String reference, final ConfigSource config) throws ConfigYaml.ConfigException {
        if (words.isEmpty()) {
            throw new Args.UsageException("missing COMMAND (" + COMMANDS + ")");
        }
        final boolean money = MONEY.containsKey(words.get(0));
        if (reference != null && !money) {
            throw new Args.UsageException("--ref belongs to deposit, withdraw and adjust only");
        }
        if (money) {
            return money(words.get(0), words.subList(1, words.size()), reference, config);
        }
        final String name = words.get(0);
        final List<String> rest = words.subList(1, words.size());
        final Command c = new Command();
        switch (name) {
            case "halt" -> c.symbolCommand(CommandType.HALT, symbol(exactly(name, rest, 1, "SYMBOL").get(0), config).id());
            case "resume" -> c.symbolCommand(CommandType.RESUME, symbol(exactly(name, rest, 1, "SYMBOL").get(0), config).id());
            case "kill-switch" -> {
                final List<String> a = exactly(name, rest, 2, "ACCOUNT on|off");
                final String state = a.get(1);
                if (!state.equals("on") && !state.equals("off")) {
                    throw new Args.UsageException("kill-switch needs on or off, not '" + state + "'");
                }
                c.accountCommand(state.equals("on") ? CommandType.KILL_SWITCH_ON : CommandType.KILL_SWITCH_OFF, account(a.get(0)));
            }
            case "end-of-day" -> {
                if (rest.size() > 1) {
                    throw new Args.UsageException("end-of-day takes at most one SYMBOL, not " + rest.size() + " arguments");
                }
                c.symbolCommand(CommandType.END_OF_DAY, rest.isEmpty() ? Command.ALL_SYMBOLS : symbol(rest.get(0), config).id());
            }
            case "snapshot" -> {
                exactly(name, rest, 0, "");
                c.clear().type = CommandType.SNAPSHOT;
            }
            case "reference-price" -> {
                final List<String> a = exactly(name, rest, 2, "SYMBOL PRICE");
                final SymbolSpec s = symbol(a.get(0), config);
                c.setReferencePrice(s.id(), ticks(a.get(1), s));
            }
            case "limits" -> limits(rest, c);
            default -> throw new Args.UsageException("unknown command '" + name + "' (" + COMMANDS + ")");
        }
        return c;
    }

    /** deposit, withdraw, adjust: ACCOUNT ASSET AMOUNT with --ref ID; the amount exact in the asset's decimals. */
    private static Command money(final String name, final List<String> rest, final String reference, final ConfigSource config)
        throws ConfigYaml.ConfigException {
        final List<String> a = exactly(name, rest, 3, "ACCOUNT ASSET AMOUNT --ref ID");
        final long account = account(a.get(0));
        final EngineConfig engineConfig = config.load();
        final AssetSpec asset = engineConfig.asset(a.get(1));
        if (asset == null) {
            throw new Args.UsageException("unknown asset '" + a.get(1) + "'; the engine config has "
                + (engineConfig.assets().isEmpty() ? "no assets" : engineConfig.assets().stream().map(AssetSpec::code).toList()));
        }
        final long amount;
        try {
            amount = asset.parse(a.get(2));
        } catch (final IllegalArgumentException e) {
            throw new Args.UsageException(e.getMessage());
        }
        final CommandType type = MONEY.get(name);
        if (type == CommandType.ADJUST ? amount == 0 : amount <= 0) {
            throw new Args.UsageException(name + " needs an amount " + (type == CommandType.ADJUST ? "other than 0" : "above 0")
                + ", not " + a.get(2));
        }
        if (reference == null) {
            throw new Args.UsageException(name + " needs --ref ID: a positive whole number never used before, so that a retried "
                + name + " applies once");
        }
        if (!WHOLE.matcher(reference).matches() || reference.length() > 18 || Long.parseLong(reference) == 0) {
            throw new Args.UsageException("--ref must be a positive whole number, not '" + reference + "'");
        }
        return new Command().money(type, account, asset.id(), amount, Long.parseLong(reference));
    }

    private static boolean isMoney(final CommandType type) {
        return MONEY.containsValue(type);
    }

    private static String describeMoney(final Command c, final AssetSpec asset) {
        return " account " + c.account + " " + asset.format(c.quantity) + " " + asset.code() + " (ref " + c.clientOrderId + ")";
    }

    /** The balance a money command's answer carries, and what was needed when funds were short. */
    private static String balance(final Result r, final AssetSpec asset) {
        return (r.fundsNeeded != 0 ? ", needed " + asset.format(r.fundsNeeded) : "") + ", available " + asset.format(r.balanceAvailable)
            + " " + asset.code() + ", held " + asset.format(r.balanceHeld) + " " + asset.code();
    }

    private static List<String> exactly(final String command, final List<String> rest, final int count, final String shape) {
        if (rest.size() != count) {
            throw new Args.UsageException(command + (count == 0 ? " takes no arguments" : " needs " + shape)
                + ", got " + (rest.isEmpty() ? "none" : String.join(" ", rest)));
        }
        return rest;
    }

    private static long account(final String text) {
        if (!WHOLE.matcher(text).matches() || text.length() > 18 || Long.parseLong(text) == 0) {
            throw new Args.UsageException("ACCOUNT must be a positive whole number, not '" + text + "'");
        }
        return Long.parseLong(text);
    }

    /** A symbol by name or id; an id the config does not know is refused here, so nothing goes to the journal. */
    private static SymbolSpec symbol(final String text, final ConfigSource config) throws ConfigYaml.ConfigException {
        final List<SymbolSpec> symbols = config.load().symbols();
        for (final SymbolSpec s : symbols) {
            if (s.name().equals(text) || WHOLE.matcher(text).matches() && text.length() < 10 && s.id() == Integer.parseInt(text)) {
                return s;
            }
        }
        final StringBuilder known = new StringBuilder();
        for (final SymbolSpec s : symbols) {
            known.append(known.length() == 0 ? "" : ", ").append(s.name()).append(" (").append(s.id()).append(')');
        }
        throw new Args.UsageException("unknown symbol '" + text + "'; the engine config has " + known);
    }

    /** A decimal price in ticks of the symbol's price scale, exactly (BigDecimal: no floating point). */
    static long ticks(final String text, final SymbolSpec s) {
        if (!DECIMAL.matcher(text).matches()) {
            throw new Args.UsageException("PRICE must be a decimal such as 25.50, not '" + text + "'");
        }
        final BigDecimal scaled = new BigDecimal(text).multiply(BigDecimal.valueOf(s.priceScale())).stripTrailingZeros();
        if (scaled.scale() > 0) {
            throw new Args.UsageException("price " + text + " is finer than " + s.name() + "'s price scale (" + s.priceScale()
                + " ticks per unit)");
        }
        if (scaled.signum() <= 0 || scaled.compareTo(BigDecimal.valueOf(Command.MAX_PRICE)) > 0) {
            throw new Args.UsageException("price " + text + " is out of range (above 0, at most " + Command.MAX_PRICE + " ticks)");
        }
        return scaled.longValueExact();
    }

    private static void limits(final List<String> rest, final Command c) {
        if (rest.isEmpty()) {
            throw new Args.UsageException("limits needs ACCOUNT and " + String.join("=, ", LIMIT_KEYS) + "=");
        }
        final long account = account(rest.get(0));
        final Map<String, String> values = new HashMap<>();
        for (final String pair : rest.subList(1, rest.size())) {
            final int eq = pair.indexOf('=');
            final String key = eq < 0 ? pair : pair.substring(0, eq);
            if (eq < 0 || !LIMIT_KEYS.contains(key)) {
                throw new Args.UsageException("limits takes KEY=VALUE with KEY one of " + LIMIT_KEYS + ", not '" + pair + "'");
            }
            if (values.put(key, pair.substring(eq + 1)) != null) {
                throw new Args.UsageException(key + " is given twice");
            }
        }
        for (final String key : LIMIT_KEYS) {
            if (!values.containsKey(key)) {
                // SET_ACCOUNT_LIMITS replaces every limit: a key left out would silently become "no limit".
                throw new Args.UsageException("limits replaces all of an account's limits: " + key + "= is missing (0 = no limit)");
            }
        }
        final String stp = values.get("selfTradePrevention").toUpperCase(Locale.ROOT).replace('-', '_');
        final SelfTradePrevention mode;
        try {
            mode = SelfTradePrevention.valueOf(stp);
        } catch (final IllegalArgumentException e) {
            throw new Args.UsageException("selfTradePrevention must be OFF, CANCEL_RESTING, CANCEL_INCOMING or CANCEL_BOTH, not '"
                + values.get("selfTradePrevention") + "'");
        }
        c.setAccountLimits(account, limit(values, "maxOrderQuantity", Command.MAX_QUANTITY),
            limit(values, "maxOrderNotional", Long.MAX_VALUE), (int) limit(values, "maxOpenOrders", Integer.MAX_VALUE), mode);
    }

    private static long limit(final Map<String, String> values, final String key, final long max) {
        final String text = values.get(key);
        if (!WHOLE.matcher(text).matches() || text.length() > 19 || new BigDecimal(text).compareTo(BigDecimal.valueOf(max)) > 0) {
            throw new Args.UsageException(key + " must be a whole number 0.." + max + " (0 = no limit), not '" + text + "'");
        }
        return Long.parseLong(text);
    }

    /** "5s", "500ms" or plain seconds. */
    static long duration(final String text) {
        final boolean millis = text.endsWith("ms");
        final int unit = millis ? 2 : text.endsWith("s") ? 1 : 0;
        final String digits = text.substring(0, text.length() - unit);
        if (!WHOLE.matcher(digits).matches() || digits.length() > 9) {
            throw new Args.UsageException("--timeout must be like 5s or 500ms, not '" + text + "'");
        }
        final long n = Long.parseLong(digits);
        return millis ? n * 1_000_000L : n * 1_000_000_000L;
    }

    private static String describe(final long nanos) {
        return nanos % 1_000_000_000L == 0 ? nanos / 1_000_000_000L + "s" : nanos / 1_000_000L + "ms";
    }

    private static String describeTarget(final Command c) {
        return switch (c.type) {
            case HALT, RESUME -> " symbol " + c.symbol;
            case END_OF_DAY -> c.symbol == Command.ALL_SYMBOLS ? " all symbols" : " symbol " + c.symbol;
            case KILL_SWITCH_ON, KILL_SWITCH_OFF -> " account " + c.account;
            case SET_REFERENCE_PRICE -> " symbol " + c.symbol + " price " + c.price + " ticks";
            case SET_ACCOUNT_LIMITS -> " account " + c.account + " maxOrderQuantity=" + c.maxOrderQuantity + " maxOrderNotional="
                + c.maxOrderNotional + " maxOpenOrders=" + c.maxOpenOrders + " selfTradePrevention=" + c.selfTradePrevention;
            default -> "";
        };
    }
}
