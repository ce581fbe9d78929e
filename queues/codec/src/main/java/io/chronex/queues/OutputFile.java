package io.chronex.queues;

import io.chronex.runtime.Args;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Locale;

/**
 * A tool's output file, refused when it would land inside a data directory or a queue: an audit
 * export aimed by mistake at {@code DATA/commands/20261127F.cq4} once replaced the live journal with
 * a CSV and took every order with it. The path is resolved as the operating system will (symbolic
 * links followed, {@code ..} applied) before it is judged, so no spelling of it gets through.
 */
public final class OutputFile {
    private static final String QUEUE_METADATA = "metadata.cq4t";

    private OutputFile() {
    }

    /** The checked path of an optional output option, or null when it was not given. */
    public static Path option(final Args args, final String option) {
        final String value = args.string(option, null);
        return value == null ? null : checked(option, value);
    }

    /**
     * The path to write {@code value} (given with {@code option}) to, or a usage error (exit 2) when
     * it lies in a chronex data directory, in a Chronicle queue's directory, or is a queue file
     * itself. Nothing is created or opened.
     */
    public static Path checked(final String option, final String value) {
        final Path given = Path.of(value);
        final Path resolved = resolve(given);
        final String name = resolved.getFileName() == null ? "" : resolved.getFileName().toString().toLowerCase(Locale.ROOT);
        final Path start = Files.isDirectory(resolved) ? resolved : resolved.getParent();
        // The data directory is named in preference to the queue inside it: it is what the operator pointed at.
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            if (Files.exists(dir.resolve(DataDirectory.MARKER))) {
                throw refusal(option, value, resolved, "inside the data directory " + dir);
            }
        }
        if (name.endsWith(".cq4") || name.endsWith(".cq4t")) {
            throw refusal(option, value, resolved, "a Chronicle queue file");
        }
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            if (Files.exists(dir.resolve(QUEUE_METADATA))) {
                throw refusal(option, value, resolved, "inside the Chronicle queue " + dir);
            }
        }
        return given;
    }

    /**
     * Where the file would really be: its nearest existing ancestor's real path (links followed)
     * with the rest appended and normalised; an existing file or link is followed to its target.
     */
    static Path resolve(final Path given) {
        // Not normalised first: "link/.." is where the link's target's parent is, as the system reads it.
        Path existing = given.toAbsolutePath();
        Path rest = null;
        try {
            // A dangling link is followed by the write, so its target counts, not the link.
            while (!Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
                rest = rest == null ? existing.getFileName() : existing.getFileName().resolve(rest);
                existing = existing.getParent();
                if (existing == null) {
                    return given.toAbsolutePath().normalize();
                }
            }
            if (Files.isSymbolicLink(existing) && !Files.exists(existing)) {
                final Path target = existing.getParent().resolve(Files.readSymbolicLink(existing));
                final Path followed = resolve(target);
                return rest == null ? followed : followed.resolve(rest).normalize();
            }
            final Path real = existing.toRealPath();
            return rest == null ? real : real.resolve(rest).normalize();
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot resolve " + given + ": " + e.getMessage(), e);
        }
    }

    private static Args.UsageException refusal(final String option, final String value, final Path resolved, final String where) {
        return new Args.UsageException(option + " " + value + (resolved.toString().equals(value) ? "" : " (" + resolved + ")") + " is "
            + where + ": a tool never writes there (it would overwrite what the exchange runs on); write it somewhere else");
    }
}
