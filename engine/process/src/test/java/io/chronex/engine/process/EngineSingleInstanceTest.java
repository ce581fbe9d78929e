package io.chronex.engine.process;

import io.chronex.testing.ChildJvm;
import io.chronex.testing.ProjectRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Two engines on one data directory, started at once on a fresh directory or after the running one
 * was killed -9 (its pid file left behind): exactly one runs, the other exits 2 saying why. Two
 * engines answering one journal would answer every command twice.
 */
class EngineSingleInstanceTest {
    @TempDir
    Path tmp;

    @Test
    void twoEnginesStartedAtOnceGiveOneRunningEngine() throws Exception {
        final Path data = tmp.resolve("data");
        try (ChildJvm jvms = new ChildJvm()) {
            for (int round = 0; round < 2; round++) {
                final Process[] engines = new Process[2];
                final Path[] logs = new Path[2];
                for (int i = 0; i < 2; i++) {
                    logs[i] = tmp.resolve("engine-" + round + "-" + i + ".log");
                    engines[i] = jvms.start(EngineMain.class.getName(), List.of("--data-dir", data.toString(), "--config",
                        ProjectRoot.resolve("config/engine.yaml").toString(), "--snapshot-every", "0"), logs[i]);
                }
                final int running = awaitOneRunningOneRefused(engines, logs, round);
                // Round 0 ends with a crash: the next pair finds the dead engine's pid file.
                engines[running].destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                assertTrue(Files.exists(data.resolve("engine.pid")), "kill -9 leaves the pid file");
            }
        }
    }

    /** Waits until one engine has started and the other has exited 2; returns the running one's index. */
    private static int awaitOneRunningOneRefused(final Process[] engines, final Path[] logs, final int round) throws Exception {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < deadline) {
            for (int i = 0; i < 2; i++) {
                final int other = 1 - i;
                if (log(logs[i]).contains("engine started") && !engines[other].isAlive()) {
                    assertTrue(engines[i].isAlive(), "round " + round + ": the started engine is still running:\n" + log(logs[i]));
                    assertEquals(2, engines[other].exitValue(), "round " + round + ":\n" + log(logs[other]));
                    assertTrue(log(logs[other]).contains("another engine is running on "), log(logs[other]));
                    return i;
                }
            }
            if (!engines[0].isAlive() && !engines[1].isAlive()) {
                fail("round " + round + ": both engines ended:\n" + log(logs[0]) + "\n---\n" + log(logs[1]));
            }
            Thread.sleep(50);
        }
        return fail("round " + round + ": not one running and one refused within 90 s:\n" + log(logs[0]) + "\n---\n" + log(logs[1]));
    }

    private static String log(final Path file) throws IOException {
        return Files.exists(file) ? Files.readString(file) : "";
    }
}
