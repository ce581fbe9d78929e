package io.chronex.replay;

import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.CommandOrigin;
import io.chronex.queues.CommandText;
import io.chronex.queues.DecodeStatus;
import io.chronex.queues.HistoryView;
import io.chronex.queues.Hops;
import io.chronex.runtime.Args;
import io.chronex.runtime.Tool;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * bin/journal-compare: whether several data directories hold the same commands journal, excerpt for excerpt and byte for
 * byte, as every member of a cluster must (each writes the log's commands, with their origin and log position, into its
 * own journal). The excerpts' queue indices are not compared: a member that wrote a command after midnight files it under
 * the next day's cycle where another filed it under the day before, and the command is the same.
 */
public final class JournalCompare {
    static final String USAGE = """
        Usage: bin/journal-compare DIR DIR [DIR...] [--orders FILE --account N]

        Reads the commands journal (DIR/commands, with days bin/admin archive moved away read back) of each
        directory and compares them excerpt by excerpt, byte for byte: the same commands (a cluster member's
        carry their origin and log position too) in the same order. Prints one line per directory,
          DIR excerpts=N
        then, at the first excerpt where they part (a different excerpt, or one journal ending before another),
          first difference at excerpt K (counting from 1): DIR index 0x.. LENGTH bytes, DIR ...
        and
          RESULT directories=N identical=yes|no excerpts=N first_difference=K|-
        (excerpts: the longest journal's count). With --orders FILE (one ClOrdID a line: the orders a client was
        told were accepted) and --account N (the client's account), also checks that each of those orders is a new
        order of account N in every journal exactly once, at the same excerpt and log position in each, and adds
          orders=N orders_once=N orders_missing=N orders_repeated=N orders_elsewhere=N
        to the RESULT line (elsewhere: at another excerpt or log position in some journal). Reads only.
        Exit status: 0 when identical (and every order once, in the same place), 1 when not, 2 for a usage error
        or a directory that is not one.
        """;

    /** What the comparison found: each directory's count, and where they first part (0 when identical). */
    public record Comparison(List<Path> dirs, long[] excerpts, long firstDifference, String difference) {
        public boolean identical() {
            return firstDifference == 0;
        }

        public String resultLine() {
            return "RESULT directories=" + dirs.size() + " identical=" + (identical() ? "yes" : "no") + " excerpts="
                + Arrays.stream(excerpts).max().orElse(0) + " first_difference=" + (identical() ? "-" : Long.toString(firstDifference));
        }
    }

    private JournalCompare() {
    }

    public static void main(final String[] argv) {
        System.exit(exitCode(argv));
    }

    static int exitCode(final String[] argv) {
        return Tool.exitCode("journal-compare", USAGE, () -> {
            final Args args = Args.parse(argv, Set.of("--orders", "--account"), Set.of(), 64);
            if (args.operands().size() < 2) {
                throw new Args.UsageException("give two or more data directories to compare");
            }
            final List<Path> dirs = new ArrayList<>();
            for (final String dir : args.operands()) {
                dirs.add(Path.of(dir));
            }
            final Comparison comparison = compare(dirs);
            for (int i = 0; i < dirs.size(); i++) {
                System.out.println(dirs.get(i) + " excerpts=" + comparison.excerpts()[i]);
            }
            if (!comparison.identical()) {
                System.out.println(comparison.difference());
            }
            if (args.string("--orders", null) == null) {
                System.out.println(comparison.resultLine());
                return comparison.identical() ? 0 : 1;
            }
            final long account = args.number("--account", -1, 0, Long.MAX_VALUE);
            if (account < 0) {
                throw new Args.UsageException("--orders needs --account N: the account of the client whose orders FILE lists");
            }
            final List<String> orders = Files.readAllLines(args.readableFile("--orders", "acknowledged.txt")).stream()
                .map(String::strip).filter(line -> !line.isEmpty()).toList();
            final OrderPlaces places = orderPlaces(dirs, account, orders);
            places.problems().stream().limit(20).forEach(System.out::println);
            System.out.println(comparison.resultLine() + " " + places.resultFields());
            return comparison.identical() && places.allOnceInPlace() ? 0 : 1;
        });
    }

    /** Compares the directories' commands journals; counts every excerpt of each even past the first difference. */
    public static Comparison compare(final List<Path> dirs) {
        final int n = dirs.size();
        final HistoryView[] views = new HistoryView[n];
        final SingleChronicleQueue[] queues = new SingleChronicleQueue[n];
        final ExcerptTailer[] tailers = new ExcerptTailer[n];
        final long[] counts = new long[n];
        try {
            for (int i = 0; i < n; i++) {
                views[i] = HistoryView.open(dirs.get(i));
                queues[i] = views[i].data().commands();
                tailers[i] = queues[i].createTailer();
            }
            final byte[][] excerpt = new byte[n][];
            final long[] index = new long[n];
            long first = 0;
            String difference = "";
            for (long k = 1; ; k++) {
                int present = 0;
                for (int i = 0; i < n; i++) {
                    excerpt[i] = next(tailers[i], index, i);
                    if (excerpt[i] != null) {
                        counts[i]++;
                        present++;
                    }
                }
                if (present == 0) {
                    return new Comparison(List.copyOf(dirs), counts, first, difference);
                }
                if (first == 0 && !allEqual(excerpt)) {
                    first = k;
                    difference = describe(k, dirs, excerpt, index);
                }
            }
        } finally {
            for (int i = 0; i < n; i++) {
                if (queues[i] != null) {
                    queues[i].close();
                }
                if (views[i] != null) {
                    views[i].close();
                }
            }
        }
    }

    /** Where a client's acknowledged orders stand in each journal: counts, and a line for each order that is not once in one place. */
    public record OrderPlaces(long orders, long once, long missing, long repeated, long elsewhere, List<String> problems) {
        public boolean allOnceInPlace() {
            return once == orders;
        }

        public String resultFields() {
            return "orders=" + orders + " orders_once=" + once + " orders_missing=" + missing + " orders_repeated=" + repeated
                + " orders_elsewhere=" + elsewhere;
        }
    }

    /**
     * For each ClOrdID of {@code orders} (new orders of {@code account} a client was told were accepted): whether every journal
     * holds it exactly once, and all at the same excerpt number and log position (a cluster member's version 3 excerpt; -1 in
     * a gateway host's journal).
     */
    public static OrderPlaces orderPlaces(final List<Path> dirs, final long account, final List<String> orders) {
        final List<Map<String, List<long[]>>> found = new ArrayList<>();
        for (final Path dir : dirs) {
            found.add(newOrders(dir, account, Set.copyOf(orders)));
        }
        long once = 0;
        long missing = 0;
        long repeated = 0;
        long elsewhere = 0;
        final List<String> problems = new ArrayList<>();
        for (final String order : new java.util.LinkedHashSet<>(orders)) {
            long[] place = null;
            String problem = null;
            for (int i = 0; i < dirs.size() && problem == null; i++) {
                final List<long[]> at = found.get(i).getOrDefault(order, List.of());
                if (at.size() != 1) {
                    problem = at.isEmpty() ? "missing" : "repeated";
                    problems.add("order " + order + ": " + at.size() + " times in " + dirs.get(i));
                } else if (place != null && !Arrays.equals(place, at.get(0))) {
                    problem = "elsewhere";
                    problems.add("order " + order + ": excerpt " + at.get(0)[0] + " log position " + at.get(0)[1] + " in " + dirs.get(i)
                        + ", excerpt " + place[0] + " log position " + place[1] + " in " + dirs.get(0));
                } else {
                    place = at.get(0);
                }
            }
            if (problem == null) {
                once++;
            } else if (problem.equals("missing")) {
                missing++;
            } else if (problem.equals("repeated")) {
                repeated++;
            } else {
                elsewhere++;
            }
        }
        return new OrderPlaces(new java.util.LinkedHashSet<>(orders).size(), once, missing, repeated, elsewhere, List.copyOf(problems));
    }

    /** Each wanted ClOrdID's new orders of {@code account} in the journal: {excerpt number, log position} per occurrence. */
    private static Map<String, List<long[]>> newOrders(final Path dir, final long account, final Set<String> wanted) {
        final Map<String, List<long[]>> found = new HashMap<>();
        final Command command = new Command();
        final Hops hops = new Hops();
        final CommandText text = new CommandText();
        final CommandOrigin origin = new CommandOrigin();
        try (HistoryView view = HistoryView.open(dir); SingleChronicleQueue queue = view.data().commands()) {
            final ExcerptTailer tailer = queue.createTailer();
            for (long k = 1; ; k++) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (!dc.isPresent()) {
                        return found;
                    }
                    final Bytes<?> bytes = dc.wire().bytes();
                    final long at = bytes.readPosition();
                    final long length = bytes.readRemaining();
                    if (CommandCodec.readAt(bytes, at, length, command, hops, text) == DecodeStatus.OK
                        && command.type == CommandType.NEW_ORDER && command.account == account) {
                        final String clOrdId = text.clientOrderIdText();
                        if (wanted.contains(clOrdId)) {
                            final long position = CommandCodec.readOrigin(bytes, at, length, origin) ? origin.logPosition : -1;
                            found.computeIfAbsent(clOrdId, id -> new ArrayList<>()).add(new long[] {k, position});
                        }
                    }
                }
            }
        }
    }

    /** The next excerpt's bytes, its index in {@code index[i]}; null at the journal's end. */
    private static byte[] next(final ExcerptTailer tailer, final long[] index, final int i) {
        try (DocumentContext dc = tailer.readingDocument()) {
            if (!dc.isPresent()) {
                return null;
            }
            index[i] = dc.index();
            final Bytes<?> bytes = dc.wire().bytes();
            final byte[] copy = new byte[(int) bytes.readRemaining()];
            bytes.read(copy);
            return copy;
        }
    }

    private static boolean allEqual(final byte[][] excerpts) {
        for (int i = 1; i < excerpts.length; i++) {
            if (!Arrays.equals(excerpts[0], excerpts[i])) {
                return false;
            }
        }
        return true;
    }

    private static String describe(final long k, final List<Path> dirs, final byte[][] excerpt, final long[] index) {
        final StringBuilder text = new StringBuilder("first difference at excerpt " + k + " (counting from 1):");
        for (int i = 0; i < dirs.size(); i++) {
            text.append(i == 0 ? " " : ", ").append(dirs.get(i));
            text.append(excerpt[i] == null ? " (journal ended)"
                : " index 0x" + Long.toHexString(index[i]) + " " + excerpt[i].length + " bytes");
        }
        return text.toString();
    }
}
