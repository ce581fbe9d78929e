package io.chronex.queues;

import io.chronex.runtime.WholeFile;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Where the journal's configuration records are ({@code DATA/snapshots/config-records}), so that finding them does not
 * read the whole journal: the records' journal indices and an index through which the journal holds no others. Written
 * only by the engine (whole, forced, renamed) at start, after it appends a record and with each snapshot; a cache of
 * the journal, never trusted over it: every index it lists must hold a record, else the reader reads the whole journal.
 */
public record ConfigRecordIndex(List<Long> records, long through) {
    /** The file's name in the snapshots directory. */
    public static final String FILE = "config-records";

    public ConfigRecordIndex {
        records = List.copyOf(records);
    }

    /** The index in {@code file}, or null when it is missing or does not read whole (a reader then reads the whole journal). */
    public static ConfigRecordIndex read(final Path file) {
        try {
            if (file == null || !Files.isRegularFile(file) || Files.size(file) > 1 << 20) {
                return null;
            }
            final String body = WholeFile.checkedBody(Files.readString(file, StandardCharsets.US_ASCII));
            final List<String> lines = body == null ? List.of() : body.lines().toList();
            if (lines.size() != 2 || !lines.get(0).startsWith("records") || !lines.get(1).startsWith("through ")) {
                return null;
            }
            final List<Long> records = new ArrayList<>();
            for (final String word : lines.get(0).substring("records".length()).trim().split(" ")) {
                if (!word.isEmpty()) {
                    records.add(Long.parseUnsignedLong(word, 16));
                }
            }
            return new ConfigRecordIndex(records, Long.parseLong(lines.get(1).substring("through ".length()), 16));
        } catch (final IOException | RuntimeException e) {
            return null;
        }
    }

    /** Writes it beside its place, forced, then renamed: a crash leaves the old file or the new one. */
    public void write(final Path file) throws IOException {
        final StringBuilder text = new StringBuilder("records");
        records.forEach(index -> text.append(' ').append(Long.toHexString(index)));
        text.append("\nthrough ").append(Long.toHexString(through)).append('\n');
        WholeFile.writeChecked(file, text.toString());
    }
}
