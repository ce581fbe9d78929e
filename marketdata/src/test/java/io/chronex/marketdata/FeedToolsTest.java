package io.chronex.marketdata;

import io.chronex.marketdata.client.MdClientMain;
import io.chronex.runtime.ConfigYaml.ConfigException;
import io.chronex.runtime.Tool;
import io.chronex.testing.ProjectRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The shipped feed configuration, configuration mistakes, and the tools' command lines. */
class FeedToolsTest {
    @TempDir
    Path dir;

    @Test
    void theShippedConfigurationLoads() throws Exception {
        final FeedConfig config = FeedConfig.load(ProjectRoot.resolve("config/marketdata.yaml"));
        assertEquals(FeedConfig.publication(40456), config.incrementalPublication());
        assertEquals(FeedConfig.subscription(40457), config.snapshotSubscription());
        assertEquals(500_000_000L, config.snapshotIntervalNanos());
        assertEquals(16 << 20, config.termLength());
        assertEquals(1_000_000L, config.pauseNanos());
        assertEquals(ProjectRoot.resolve("config/engine.yaml").toAbsolutePath().normalize(), config.engineConfig());
    }

    @Test
    void mistakesNameTheFileAndLine() throws Exception {
        final Path file = dir.resolve("marketdata.yaml");
        Files.writeString(file, "snapshotIntervalMs: 500\ntermLength: 3MiB\n");
        final ConfigException term = assertThrows(ConfigException.class, () -> FeedConfig.load(file));
        assertTrue(term.getMessage().startsWith(file + ":2: termLength must be a power of two"), term.getMessage());
        Files.writeString(file, "incrementalPublication: udp://localhost:1\n");
        assertTrue(assertThrows(ConfigException.class, () -> FeedConfig.load(file)).getMessage().contains(":1: incrementalPublication"));
        Files.writeString(file, "snapshotIntervall: 5\n");
        assertTrue(assertThrows(ConfigException.class, () -> FeedConfig.load(file)).getMessage()
            .contains("unknown key 'snapshotIntervall'"));
        Files.writeString(file, "snapshotPublication: aeron:udp?control=localhost:40456|control-mode=dynamic\nsnapshotStream: 1001\n");
        assertTrue(assertThrows(ConfigException.class, () -> FeedConfig.load(file)).getMessage().contains("must differ"));
        Files.writeString(file, "termLength: 1MiB\npauseMicros: -1\n");
        assertTrue(assertThrows(ConfigException.class, () -> FeedConfig.load(file)).getMessage().contains(":2: pauseMicros"));
        Files.writeString(file, "pauseMicros: 0\n");
        assertEquals(0, FeedConfig.load(file).pauseNanos());
    }

    @Test
    void mdClientExplainsItselfAndRefusesBadArguments() {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        final PrintStream err = System.err;
        final ByteArrayOutputStream errors = new ByteArrayOutputStream();
        System.setErr(new PrintStream(errors, true, StandardCharsets.UTF_8));
        try {
            exitCodes(out);
        } finally {
            System.setErr(err);
        }
        final String said = errors.toString(StandardCharsets.UTF_8);
        assertTrue(said.contains("md-client: --drop-rate must be from 0 to 1, not 2"), said);
        assertTrue(said.contains("none.yaml (--config)"), said);
    }

    private void exitCodes(final PrintStream out) {
        assertEquals(0, Tool.exitCode("md-client", "usage\n", () -> MdClientMain.run(new String[] {"--help"}, out)));
        assertEquals(2, Tool.exitCode("md-client", "usage\n", () -> MdClientMain.run(new String[] {"--drop-rate", "2"}, out)));
        assertEquals(2, Tool.exitCode("md-client", "usage\n", () -> MdClientMain.run(new String[] {"--config", dir.resolve("none.yaml")
            .toString()}, out)));
    }
}
