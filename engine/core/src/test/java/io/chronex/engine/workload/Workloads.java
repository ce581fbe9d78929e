package io.chronex.engine.workload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.fail;

/** Finds ../shared/workloads beside the project root and reads a workload's reference.txt. */
final class Workloads {
    private Workloads() {
    }

    /**
     * The Maven root: surefire passes it as chronex.root; an IDE run may not, so walk up from the
     * working directory. Either way the root is recognised by its pom listing the engine module,
     * not merely by a folder named engine (engine/ itself holds the engine modules).
     */
    static Path projectRoot() {
        final String property = System.getProperty("chronex.root");
        final Path start = (property != null && !property.isBlank() ? Path.of(property) : Path.of("")).toAbsolutePath().normalize();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            if (isProjectRoot(dir)) {
                return dir;
            }
        }
        return fail("cannot find the project root (a folder whose pom.xml has <module>engine</module>) at or above " + start
            + (property != null ? " (from -Dchronex.root)" : " (the working directory)"));
    }

    private static boolean isProjectRoot(final Path dir) {
        final Path pom = dir.resolve("pom.xml");
        try {
            return Files.isRegularFile(pom) && Files.readString(pom).contains("<module>engine</module>");
        } catch (final IOException e) {
            return false;
        }
    }

    /** The workload folder, or a failure that says where it was looked for. */
    static Path workload(final String name) {
        final Path dir = projectRoot().resolve("../shared/workloads").resolve(name).normalize();
        if (!Files.isRegularFile(dir.resolve("commands.csv.gz"))) {
            fail("workload " + name + " not found: expected " + dir.resolve("commands.csv.gz")
                + " (the project needs ../shared beside its root; see README)");
        }
        return dir;
    }

    /** reference.txt as key -> value; keys lose their "(explanation)" part. */
    static Map<String, String> reference(final Path workload) throws IOException {
        final Map<String, String> values = new HashMap<>();
        final List<String> lines = Files.readAllLines(workload.resolve("reference.txt"));
        for (final String line : lines) {
            if (line.startsWith("#") || !line.contains("=")) {
                continue;
            }
            if (line.startsWith("final.L2.")) {
                values.put(key(line.substring(0, line.indexOf('='))), line.substring(line.indexOf('=') + 1).trim());
                continue;
            }
            // Explanations in parentheses may hold spaces and '='; drop them before splitting pairs.
            for (final String token : line.replaceAll("\\([^)]*\\)", "").split(" ")) {
                final int eq = token.indexOf('=');
                if (eq > 0) {
                    values.put(key(token.substring(0, eq)), token.substring(eq + 1));
                }
            }
        }
        return values;
    }

    private static String key(final String raw) {
        final int paren = raw.indexOf('(');
        return (paren > 0 ? raw.substring(0, paren) : raw).trim();
    }
}
