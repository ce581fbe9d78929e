package io.chronex.runtime;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32;

/** A small text file replaced whole: written beside its place, forced to disk, then renamed, so a crash leaves the old or the new. */
public final class WholeFile {
    private WholeFile() {
    }

    /** Replaces {@code file} with {@code text} (UTF-8). */
    public static void write(final Path file, final String text) throws IOException {
        final Path partial = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(partial, text, StandardCharsets.UTF_8);
        try (FileChannel channel = FileChannel.open(partial, StandardOpenOption.WRITE)) {
            channel.force(true);
        }
        Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /**
     * Replaces {@code file} with {@code body} and a last line {@code check <CRC32 of body, hex>}, so that a reader can tell a
     * whole file from one damaged or changed by hand ({@link #checkedBody}).
     */
    public static void writeChecked(final Path file, final String body) throws IOException {
        write(file, body + "check " + Long.toHexString(crc(body)) + "\n");
    }

    /** The body of a text {@link #writeChecked} wrote, or null when its last line is not the check of the rest. */
    public static String checkedBody(final String text) {
        final int at = text.lastIndexOf("check ");
        if (at < 0 || at > 0 && text.charAt(at - 1) != '\n') {
            return null;
        }
        final String body = text.substring(0, at);
        return text.substring(at).strip().equals("check " + Long.toHexString(crc(body))) ? body : null;
    }

    private static long crc(final String text) {
        final CRC32 crc = new CRC32();
        crc.update(text.getBytes(StandardCharsets.UTF_8));
        return crc.getValue();
    }
}
