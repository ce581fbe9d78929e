package io.chronex.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The project's workloads/ folder: finds a workload and reads its reference.txt. */
public final class Workloads {
    private Workloads() {
    }

    /** The workload folder; fails saying where it was looked for. */
    public static Path workload(final String name) {
        final Path dir = ProjectRoot.resolve("workloads").resolve(name);
        if (!Files.isRegularFile(dir.resolve("commands.csv.gz"))) {
            throw new IllegalStateException("workload " + name + " not found: expected " + dir.resolve("commands.csv.gz")
                + " (workloads/ is part of the repository)");
        }
        return dir;
    }

    /** reference.txt as key -> value; keys lose their "(explanation)" part. */
    public static Map<String, String> reference(final Path workload) throws IOException {
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
