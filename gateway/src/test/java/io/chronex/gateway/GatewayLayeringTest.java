package io.chronex.gateway;

import io.chronex.testing.ProjectRoot;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The gateway's arrows point down (docs/gateway.md, "Layers"): the process package on top puts the parts together; the
 * protocol front-ends use the order-entry core; the core uses the configuration and nothing above it. Read from the
 * sources' own text (imports and fully qualified names), so a reference that breaks a rule cannot hide.
 */
class GatewayLayeringTest {
    private static final String ROOT = "io.chronex.gateway";
    /** Per package below the process package: the gateway packages it may use besides itself. */
    private static final Map<String, Set<String>> MAY_USE = Map.of(
        "config", Set.of(),
        "core", Set.of("config"),
        "fix", Set.of("core"),
        "session", Set.of(),
        "marketdata", Set.of("config", "core", "fix"));
    private static final Pattern REFERENCE = Pattern.compile("\\bio\\.chronex\\.gateway\\.([A-Za-z_]\\w*)");

    @Test
    void everyPackageUsesOnlyThePackagesBelowIt() throws IOException {
        final Path sources = ProjectRoot.resolve("gateway/src/main/java/io/chronex/gateway");
        final List<String> broken = new ArrayList<>();
        final Set<String> packages = new TreeSet<>();
        try (Stream<Path> files = Files.walk(sources)) {
            for (final Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".java"))::iterator) {
                final Path relative = sources.relativize(file.getParent());
                if (relative.toString().isEmpty()) {
                    continue;
                }
                final String pkg = relative.toString().replace('/', '.');
                packages.add(pkg);
                final Set<String> allowed = MAY_USE.get(pkg);
                if (allowed == null) {
                    broken.add(pkg + " has no rule in " + getClass().getSimpleName() + ": say which packages it may use");
                    continue;
                }
                final Matcher m = REFERENCE.matcher(Files.readString(file));
                while (m.find()) {
                    final String used = m.group(1);
                    if (!used.equals(pkg.split("\\.")[0]) && !allowed.contains(used)) {
                        broken.add(sources.getParent().relativize(file) + " uses " + ROOT + "." + used
                            + (Character.isUpperCase(used.charAt(0)) ? " (the process package, which is above every other)" : ""));
                    }
                }
            }
        }
        assertTrue(packages.containsAll(Set.of("config", "core", "fix")), "packages found: " + packages);
        assertEquals(List.of(), broken, "references that point up or sideways");
    }
}
