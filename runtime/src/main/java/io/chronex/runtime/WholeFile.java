package io.chronex.runtime;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

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
}
