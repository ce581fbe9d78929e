package io.chronex.queues;

import io.chronex.runtime.WholeFile;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import java.util.TreeMap;

/**
 * The configuration records of journal cycles {@code bin/admin archive} moved away, byte for byte as journalled, kept in
 * the data directory ({@code DIR/snapshots/config-records-archived}): the initial record sits in the journal's first
 * cycle, and every process that starts on the directory (engine, gateways, monitor, tools) must still find the
 * configuration the history was written under without the archive. Written (whole, forced, renamed) before any journal
 * cycle leaves, and only ever grown; a reader takes from it the records of indices the live journal no longer has.
 */
public final class ArchivedConfigRecords {
    /** The file's name, in the snapshots directory beside {@link ConfigRecordIndex#FILE}. */
    public static final String FILE = "config-records-archived";

    private final Map<Long, byte[]> records;

    private ArchivedConfigRecords(final Map<Long, byte[]> records) {
        this.records = records;
    }

    /** Where the records of a data directory are kept. */
    public static Path file(final DataDirectory data) {
        return data.snapshots().resolve(FILE);
    }

    /**
     * The records kept in {@code file}: none when it does not exist. @throws IllegalStateException when it exists and does
     * not read whole (the initial configuration cannot be guessed: a reader must not carry on without it)
     */
    public static ArchivedConfigRecords read(final Path file) {
        final Map<Long, byte[]> records = new TreeMap<>();
        if (file == null || !Files.exists(file)) {
            return new ArchivedConfigRecords(records);
        }
        try {
            final String body = WholeFile.checkedBody(Files.readString(file, StandardCharsets.US_ASCII));
            if (body == null) {
                throw new IllegalStateException(file + " does not read whole: it holds the configuration records of archived journal"
                    + " cycles; restore it from a backup, or put the archived cycles back (docs/operating.md, Archiving past days)");
            }
            for (final String line : body.split("\n")) {
                if (line.isEmpty()) {
                    continue;
                }
                final String[] w = line.split(" ");
                if (w.length != 3 || !w[0].equals("record")) {
                    throw new IllegalStateException(file + ": not a record line: " + line);
                }
                records.put(Long.parseUnsignedLong(w[1], 16), Base64.getDecoder().decode(w[2]));
            }
            return new ArchivedConfigRecords(records);
        } catch (final IOException | IllegalArgumentException e) {
            throw new IllegalStateException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /** These records and {@code more} (journal index to the excerpt's bytes), written to {@code file}. */
    public ArchivedConfigRecords plus(final Map<Long, byte[]> more, final Path file) throws IOException {
        final Map<Long, byte[]> all = new TreeMap<>(records);
        all.putAll(more);
        final StringBuilder text = new StringBuilder();
        all.forEach((index, bytes) -> text.append("record ").append(Long.toHexString(index)).append(' ')
            .append(Base64.getEncoder().encodeToString(bytes)).append('\n'));
        WholeFile.writeChecked(file, text.toString());
        return new ArchivedConfigRecords(all);
    }

    /** Journal index to the record's bytes, in journal order. */
    public Map<Long, byte[]> records() {
        return records;
    }
}
