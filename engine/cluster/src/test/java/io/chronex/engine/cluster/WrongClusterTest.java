package io.chronex.engine.cluster;

import io.chronex.api.EngineConfig;
import io.chronex.api.SymbolSpec;
import io.chronex.bridge.BridgeMain;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.cluster.ClusterConfig;
import io.chronex.testing.Await;
import io.chronex.testing.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A gateway host whose cluster file names another cluster than the members': bin/bridge (a real process) is refused when it
 * connects, says the file and both names, exits 2, and nothing of the host's journal reaches the member or its events; the same
 * host with the right file is then served as ever.
 */
class WrongClusterTest {
    private static final EngineConfig CONFIG = EngineConfig.noRiskChecks(SymbolSpec.plain(1));

    @TempDir
    Path tmp;

    private final List<String> log = new CopyOnWriteArrayList<>();

    @Test
    void aBridgeWhoseFileNamesAnotherClusterIsRefusedWithTheFileAndBothNamesAndNothingIsSent() throws Exception {
        final ClusterConfig harness = ClusterHarness.config(tmp, 1);
        final String yaml = Files.readString(harness.file());
        final Path alpha = Files.writeString(tmp.resolve("alpha.yaml"), yaml + "name: alpha\n");
        final Path beta = Files.writeString(tmp.resolve("beta.yaml"), yaml + "name: beta\n");
        final DataDirectory node = DataDirectory.open(tmp.resolve("node-0"));
        final DataDirectory host = DataDirectory.open(tmp.resolve("host"));
        final List<Long> journal = ThreeNodeClusterTest.append(host, 5, new SplittableRandom(3), 0);
        try (ClusterNode member = ClusterNode.start(ClusterConfig.load(alpha), 0, node, CONFIG, 0, "backoff", line -> log.add(line));
             ChildJvm jvms = new ChildJvm()) {
            Await.until("member 0 leads", 60, () -> member.service().role() == io.aeron.cluster.service.Cluster.Role.LEADER);
            final Path wrongOut = tmp.resolve("bridge-beta.out");
            final Process wrong = jvms.start(bridge(beta, host), wrongOut);
            assertTrue(wrong.waitFor(120, TimeUnit.SECONDS), "the refused bridge ends by itself");
            final String said = Files.readString(wrongOut);
            assertEquals(2, wrong.exitValue(), said);
            assertTrue(said.contains("REFUSED: " + beta + " names cluster 'beta', but the members at ") && said.contains(
                " are cluster 'alpha'"), said);
            assertTrue(log.stream().anyMatch(l -> l.contains("its cluster file names cluster 'beta', this is cluster 'alpha'")),
                log.toString());
            assertEquals(0, member.service().applied(), "nothing of the host's journal reached the cluster");
            assertEquals(0, ClusterRig.eventCount(host.root()), "nothing written to the host's events");

            final Path rightOut = tmp.resolve("bridge-alpha.out");
            final Process right = jvms.start(bridge(alpha, host), rightOut);
            ChildJvm.awaitLine(right, rightOut, "forwarding after");
            Await.until("the host's 5 commands answered", 60, () -> ClusterRig.eventCount(host.root()) == journal.size());
            assertEquals(5, member.service().applied());
            right.destroy();
            assertTrue(right.waitFor(60, TimeUnit.SECONDS));
        } finally {
            log.forEach(System.out::println);
        }
    }

    private static List<String> bridge(final Path cluster, final DataDirectory host) {
        return ChildJvm.command("256m", "-XX:+UseSerialGC", BridgeMain.class.getName(), List.of("--cluster", cluster.toString(),
            "--data-dir", host.root().toString(), "--id", "1", "--idle", "backoff"));
    }
}
