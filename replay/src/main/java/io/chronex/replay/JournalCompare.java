package io.chronex.replay;

import io.chronex.queues.HistoryView;
import io.chronex.runtime.Args;
import io.chronex.runtime.Tool;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * bin/journal-compare: whether several data directories hold the same commands journal, excerpt for excerpt and byte for
 * byte, as every member of a cluster must (each writes the log's commands, with their origin and log position, into its
 * own journal). The excerpts' queue indices are not compared: a member that wrote a command after midnight files it under
 * the next day's cycle where another filed it under the day before, and the command is the same.
 */
public final class JournalCompare {
    static final String USAGE = """
        Usage: bin/journal-compare DIR DIR [DIR...]

        Reads the commands journal (DIR/commands, with days bin/admin archive moved away read back) of each
        directory and compares them excerpt by excerpt, byte for byte: the same commands (a cluster member's
        carry their origin and log position too) in the same order. Prints one line per directory,
          DIR excerpts=N
        then, at the first excerpt where they part (a different excerpt, or one journal ending before another),
          first difference at excerpt K (counting from 1): DIR index 0x.. LENGTH bytes, DIR ...
        and
          RESULT directories=N identical=yes|no excerpts=N first_difference=K|-
        (excerpts: the longest journal's count). Reads only.
        Exit status: 0 when identical, 1 when not, 2 for a usage error or a directory that is not one.
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
            final Args args = Args.parse(argv, Set.of(), Set.of(), 64);
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
            System.out.println(comparison.resultLine());
            return comparison.identical() ? 0 : 1;
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
