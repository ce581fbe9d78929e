package io.chronex.gateway;

import io.chronex.replay.LatencyReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * bin/latency-report's regression gate on real runs: the same orders through a real engine and gateway,
 * once as they are and once with the engine slowed down on purpose (5 ms per command, the benchmark-only
 * -Dchronex.engine.slowDownMicros); against the normal run as baseline, the slowed run fails the gate
 * and names the match hop, and the normal run passes against itself.
 */
class GatewayLatencyGateTest {
    private static final int ORDERS = 60;

    @TempDir
    Path tmp;

    private Path run(final String name, final List<String> engineOptions) throws Exception {
        final Path dir = Files.createDirectories(tmp.resolve(name));
        try (Exchange exchange = new Exchange(dir, "  - {senderCompId: LOAD1, account: 101}\n")) {
            exchange.startEngine(engineOptions);
            exchange.startGateway();
            try (FixText client = FixText.logOn(exchange.port, "LOAD1")) {
                for (int i = 0; i < ORDERS; i++) {
                    client.send("D", "11=G-" + i + "\u000155=ACME\u000154=1\u000138=1\u000140=2\u000144=90.01\u000159=1"
                        + "\u000160=20261124-10:00:00\u0001");
                    assertEquals("0", client.expect("8").get(150));
                }
            }
            assertEquals(0, exchange.stopGateway());
            return exchange.data;
        }
    }

    private static String report(final int expectedExit, final String... argv) {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final int exit;
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            exit = LatencyReport.exitCode(argv, out);
        }
        final String output = bytes.toString(StandardCharsets.UTF_8);
        assertEquals(expectedExit, exit, output);
        return output;
    }

    @Test
    void aDeliberatelySlowedEngineFailsTheGate() throws Exception {
        final Path normal = run("normal", List.of());
        final Path slowed = run("slowed", List.of("-Dchronex.engine.slowDownMicros=5000"));
        final String same = report(0, "--data-dir", normal.toString(), "--baseline", normal.toString());
        assertTrue(same.contains("gate=pass"), same);
        final String worse = report(1, "--data-dir", slowed.toString(), "--baseline", normal.toString());
        assertTrue(worse.lines().anyMatch(l -> l.startsWith("  match    p50") && l.endsWith("WORSE")), worse);
        assertTrue(worse.contains("gate=fail"), worse);
    }
}
