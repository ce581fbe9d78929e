package io.chronex.engine.reference;

import io.chronex.engine.MatchingEngine;
import io.chronex.api.Command;
import io.chronex.api.EngineConfig;
import io.chronex.api.Result;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Restoring a snapshot taken after command k and applying commands k+1..n gives the same result for
 * every command, and the same final state hash, as applying 1..n without interruption.
 */
class SnapshotReplayTest {
    private static long fingerprint(final String text) {
        long hash = 0xcbf29ce484222325L;
        for (int i = 0; i < text.length(); i++) {
            hash = (hash ^ text.charAt(i)) * 0x100000001b3L;
        }
        return hash;
    }

    private static void roundTripAtRandomPoints(final long seed, final EngineConfig config, final int commands, final int checkpoints) {
        final MatchingEngine engine = new MatchingEngine(config);
        final ReferenceEngine reference = new ReferenceEngine(config);
        final RandomCommandStream stream = new RandomCommandStream(seed, reference);
        final SplittableRandom random = new SplittableRandom(seed * 7919);
        final Command[] history = new Command[commands];
        final long[] fingerprints = new long[commands];
        final TreeMap<Integer, byte[]> snapshots = new TreeMap<>();
        final TreeMap<Integer, Long> hashes = new TreeMap<>();
        while (snapshots.size() < checkpoints) {
            snapshots.put(random.nextInt(commands), null);
        }
        final Result result = new Result();
        final Result scratch = new Result();
        for (int i = 0; i < commands; i++) {
            history[i] = new Command().copyFrom(stream.next(new Command()));
            engine.apply(history[i], result);
            reference.apply(new Command().copyFrom(history[i]), scratch);
            fingerprints[i] = fingerprint(result.toString());
            if (snapshots.containsKey(i)) {
                snapshots.put(i, engine.snapshot());
                hashes.put(i, engine.stateHash());
            }
        }
        final long finalHash = engine.stateHash();
        final byte[] finalSnapshot = engine.snapshot();

        final List<Integer> points = new ArrayList<>(snapshots.keySet());
        for (final int k : points) {
            final MatchingEngine restored = MatchingEngine.restore(snapshots.get(k));
            assertEquals(hashes.get(k), restored.stateHash(), "hash right after restoring the snapshot taken after command " + k);
            for (int i = k + 1; i < commands; i++) {
                restored.apply(new Command().copyFrom(history[i]), result);
                if (fingerprint(result.toString()) != fingerprints[i]) {
                    fail("seed " + seed + ": restored at " + k + ", command " + i + " (" + history[i]
                        + ") gave a different result: " + result);
                }
            }
            assertEquals(finalHash, restored.stateHash(), "final hash after restoring at " + k);
            assertArrayEquals(finalSnapshot, restored.snapshot(), "final state after restoring at " + k);
        }
    }

    @Test
    void restoreAnywhereThenReplayMatchesAnUninterruptedRun() {
        roundTripAtRandomPoints(11, RandomCommandStream.riskOn(true), 120_000, 8);
        roundTripAtRandomPoints(12, RandomCommandStream.riskOn(false), 80_000, 6);
        roundTripAtRandomPoints(13, RandomCommandStream.config(0, true), 80_000, 6);
    }
}
