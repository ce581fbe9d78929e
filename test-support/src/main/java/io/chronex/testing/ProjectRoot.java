package io.chronex.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The project's root folder, where config/ and workloads/ are, for tests run by Maven or an IDE. */
public final class ProjectRoot {
    private ProjectRoot() {
    }

    /**
     * Surefire passes the Maven root as chronex.root; an IDE run may not, so walk up from the working
     * directory. Either way the root is recognised by its pom listing the engine module, not merely by
     * a folder named engine (engine/ itself holds the engine modules).
     *
     * @throws IllegalStateException naming where it looked
     */
    public static Path get() {
        final String property = System.getProperty("chronex.root");
        final Path start = (property != null && !property.isBlank() ? Path.of(property) : Path.of("")).toAbsolutePath().normalize();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            if (isProjectRoot(dir)) {
                return dir;
            }
        }
        throw new IllegalStateException("cannot find the project root (a folder whose pom.xml has <module>engine</module>) at or above "
            + start + (property != null ? " (from -Dchronex.root)" : " (the working directory)"));
    }

    /** A path under the root, such as {@code config/engine.yaml}. */
    public static Path resolve(final String relative) {
        return get().resolve(relative);
    }

    private static boolean isProjectRoot(final Path dir) {
        final Path pom = dir.resolve("pom.xml");
        try {
            return Files.isRegularFile(pom) && Files.readString(pom).contains("<module>engine</module>");
        } catch (final IOException e) {
            return false;
        }
    }
}
