package io.chronex.queues;

import io.chronex.runtime.WholeFile;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Which past cycles (a day's file each) of a data directory's queues {@code bin/admin archive} moved away, and where to:
 * {@code DIR/archived-cycles} in the data directory, and the same list as {@code ARCHIVE/manifest} in the archive, so
 * that each side says what it holds without the other. Every cycle is named with its file, the file it is stored as
 * (".gz" when compressed), the original's length and SHA-256, which the archive checks before it removes an original
 * and a reader checks when it reads one back. Written whole (beside, forced, renamed): a crash leaves the old list or
 * the new, and a cycle appears in it only once its copy in the archive is complete.
 */
public final class ArchivedCycles {
    /** The list in a data directory. */
    public static final String FILE = "archived-cycles";
    /** In the data directory: bin/admin archive holds it exclusively while it moves days, readers of the history shared. */
    public static final String LOCK = ".chronex-archive.lock";
    /**
     * DIR/archived-readers (a checked text file, one 'gateway N' or 'marketdata' a line): the readers that served the data
     * directory when days were archived. One listed without its checkpoint has lost it; one not listed is new and needs none
     * of the archived days.
     */
    public static final String READERS = "archived-readers";
    /** The list in an archive. */
    public static final String MANIFEST = "manifest";
    /** The queues whose past cycles are archived. */
    public static final List<String> QUEUES = List.of("commands", "events");
    private static final String SUFFIX = ".cq4";
    /** FAST_DAILY's file names: the UTC day, and an F. */
    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("yyyyMMdd'F'").withZone(ZoneOffset.UTC);

    /** One archived cycle of one queue. */
    public record Cycle(String queue, String file, String stored, long bytes, String sha256) {
        /** The cycle's number (days since 1970-01-01, as Chronicle numbers FAST_DAILY cycles). */
        public int cycle() {
            return cycleOf(file).orElseThrow();
        }

        public boolean compressed() {
            return stored.endsWith(".gz");
        }
    }

    private final Path other;
    private final List<Cycle> cycles;

    private ArchivedCycles(final Path other, final List<Cycle> cycles) {
        this.other = other;
        this.cycles = List.copyOf(cycles);
    }

    /** An empty list naming the other side: the archive (in a data directory) or the data directory (in an archive). */
    public static ArchivedCycles empty(final Path other) {
        return new ArchivedCycles(other, List.of());
    }

    /** A queue file's cycle, when the name is a FAST_DAILY cycle file's ({@code 20261120F.cq4}). */
    public static Optional<Integer> cycleOf(final String fileName) {
        if (!fileName.endsWith(SUFFIX) || fileName.length() != "yyyyMMddF".length() + SUFFIX.length()) {
            return Optional.empty();
        }
        try {
            final LocalDate day = LocalDate.parse(fileName.substring(0, fileName.length() - SUFFIX.length()), DAY);
            return Optional.of((int) day.toEpochDay());
        } catch (final DateTimeParseException e) {
            return Optional.empty();
        }
    }

    /** The file name of a cycle. */
    public static String fileOf(final int cycle) {
        return DAY.format(LocalDate.ofEpochDay(cycle)) + SUFFIX;
    }

    /** The cycle a journal or events index is in (its upper bits, for FAST_DAILY). */
    public static int cycleOfIndex(final long index) {
        return DataDirectory.ROLL_CYCLE.toCycle(index);
    }

    /** The data directory's list, empty when nothing was ever archived. @throws IllegalStateException when it does not read whole */
    public static ArchivedCycles ofDataDirectory(final Path root) {
        return read(root.resolve(FILE), "archive");
    }

    /** An archive's manifest, empty when there is none yet. @throws IllegalStateException when it does not read whole */
    public static ArchivedCycles ofArchive(final Path archive) {
        return read(archive.resolve(MANIFEST), "data-dir");
    }

    private static ArchivedCycles read(final Path file, final String key) {
        if (!Files.exists(file)) {
            return new ArchivedCycles(null, List.of());
        }
        try {
            final String body = WholeFile.checkedBody(Files.readString(file, StandardCharsets.UTF_8));
            if (body == null || !body.startsWith(key + " ")) {
                throw new IllegalStateException(file + " does not read whole (its check line does not match): bin/admin archive"
                    + " writes it whole, so it was changed by hand or damaged; the archive's " + MANIFEST + " lists the same cycles");
            }
            final List<String> lines = body.lines().toList();
            final List<Cycle> cycles = new ArrayList<>();
            for (final String line : lines.subList(1, lines.size())) {
                final String[] w = line.split(" ");
                if (w.length != 6 || !w[0].equals("cycle") || !QUEUES.contains(w[1]) || cycleOf(w[2]).isEmpty()) {
                    throw new IllegalStateException(file + ": not a cycle line: " + line);
                }
                cycles.add(new Cycle(w[1], w[2], w[3], Long.parseLong(w[4]), w[5]));
            }
            return new ArchivedCycles(Path.of(lines.get(0).substring(key.length() + 1)), cycles);
        } catch (final IOException | NumberFormatException e) {
            throw new IllegalStateException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /** Writes the data directory's list. */
    public void writeToDataDirectory(final Path root) throws IOException {
        write(root.resolve(FILE), "archive");
    }

    /** Writes the archive's manifest. */
    public void writeToArchive(final Path archive) throws IOException {
        write(archive.resolve(MANIFEST), "data-dir");
    }

    private void write(final Path file, final String key) throws IOException {
        final StringBuilder text = new StringBuilder(key).append(' ').append(other).append('\n');
        for (final Cycle c : cycles) {
            text.append("cycle ").append(c.queue()).append(' ').append(c.file()).append(' ').append(c.stored()).append(' ')
                .append(c.bytes()).append(' ').append(c.sha256()).append('\n');
        }
        WholeFile.writeChecked(file, text.toString());
    }

    /** The other side: the archive directory (for a data directory's list), or the data directory (for a manifest); null if none. */
    public Path other() {
        return other;
    }

    /** The same list naming {@code otherSide}. */
    public ArchivedCycles naming(final Path otherSide) {
        return new ArchivedCycles(otherSide, cycles);
    }

    public List<Cycle> cycles() {
        return cycles;
    }

    public boolean isEmpty() {
        return cycles.isEmpty();
    }

    /** This list with {@code cycle} added (replacing an entry for the same file of the same queue). */
    public ArchivedCycles with(final Cycle cycle) {
        final List<Cycle> next = new ArrayList<>(cycles);
        next.removeIf(c -> c.queue().equals(cycle.queue()) && c.file().equals(cycle.file()));
        next.add(cycle);
        next.sort(java.util.Comparator.comparing(Cycle::queue).thenComparing(Cycle::file));
        return new ArchivedCycles(other, next);
    }

    /** The archived cycle of that queue and file, if any. */
    public Optional<Cycle> find(final String queue, final String file) {
        return cycles.stream().filter(c -> c.queue().equals(queue) && c.file().equals(file)).findFirst();
    }

    /** The newest archived cycle of a queue, or -1 when none of it is archived. */
    public int lastCycle(final String queue) {
        return cycles.stream().filter(c -> c.queue().equals(queue)).mapToInt(Cycle::cycle).max().orElse(-1);
    }
}
