package io.chronex.runtime;

import io.chronex.testing.ProjectRoot;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Java 17 flags Chronicle needs are listed in three places; they must say the same thing. */
class JvmFlagsConsistencyTest {
    private static Path root() {
        return ProjectRoot.get();
    }

    private static List<String> split(final String text) {
        return Arrays.stream(text.trim().split("\\s+")).filter(s -> !s.isEmpty()).sorted().toList();
    }

    @Test
    void mavenConfigBinScriptsAndSurefireUseTheSameFlags() throws IOException {
        final Path root = root();
        final List<String> maven = split(Files.readString(root.resolve(".mvn/jvm.config")));
        final List<String> scripts = split(String.join(" ", Files.readAllLines(root.resolve("config/jvm.options")).stream()
            .filter(line -> !line.isBlank() && !line.startsWith("#")).toList()));
        final Matcher pom = Pattern.compile("<chronex.jvm.flags>([^<]*)</chronex.jvm.flags>")
            .matcher(Files.readString(root.resolve("pom.xml")));
        assertTrue(pom.find(), "pom.xml has no <chronex.jvm.flags> property");
        final List<String> surefire = split(pom.group(1));

        assertFalse(maven.isEmpty());
        assertTrue(maven.contains("--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED"));
        assertEquals(maven, scripts, "config/jvm.options differs from .mvn/jvm.config");
        assertEquals(maven, surefire, "pom.xml <chronex.jvm.flags> differs from .mvn/jvm.config");
    }
}
