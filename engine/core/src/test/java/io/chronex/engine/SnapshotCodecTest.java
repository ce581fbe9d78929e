package io.chronex.engine;

import io.chronex.api.CommandType;
import io.chronex.api.EngineConfig;
import io.chronex.api.SymbolSpec;
import io.chronex.api.OrderType;
import io.chronex.api.Result;
import io.chronex.api.SelfTradePrevention;
import io.chronex.api.Side;
import io.chronex.api.TimeInForce;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.SplittableRandom;

import static io.chronex.engine.EngineFixture.ALICE;
import static io.chronex.engine.EngineFixture.BOB;
import static io.chronex.engine.EngineFixture.CAROL;
import static io.chronex.engine.EngineFixture.OTHER_SYM;
import static io.chronex.engine.EngineFixture.SYM;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Snapshot bytes round-trip exactly, keep time priority and switches, and bad bytes fail cleanly. */
class SnapshotCodecTest {
    private static EngineFixture busyEngine() {
        final EngineFixture f = EngineFixture.standard();
        f.limits(CAROL, 500, 1_000_000, 10, SelfTradePrevention.CANCEL_BOTH);
        f.sell(ALICE, 1, 101, 5);
        f.sell(BOB, 2, 101, 3);
        f.sell(CAROL, 3, 102, 4);
        f.order(ALICE, 4, Side.BUY, OrderType.LIMIT, TimeInForce.DAY, 99, 7);
        f.buy(BOB, 5, 100, 2);
        f.buy(CAROL, 6, 101, 2);
        f.apply(f.command.newOrder(BOB, OTHER_SYM, 7, Side.SELL, OrderType.LIMIT, TimeInForce.GTC, 50, 9));
        f.symbolCommand(CommandType.HALT, OTHER_SYM);
        f.accountCommand(CommandType.KILL_SWITCH_ON, CAROL);
        return f;
    }

    @Test
    void restoredEngineWritesTheSameBytesAndHash() {
        final EngineFixture f = busyEngine();
        final byte[] bytes = f.engine.snapshot();
        final MatchingEngine restored = MatchingEngine.restore(bytes);
        assertArrayEquals(bytes, restored.snapshot());
        assertEquals(f.engine.stateHash(), restored.stateHash());
        assertEquals(f.engine.commandCount(), restored.commandCount());
    }

    @Test
    void namesAreWrittenAsJavaModifiedUtf8SoOlderSnapshotsStillRead() throws Exception {
        // NUL, two-byte and three-byte characters: the cases where modified UTF-8 differs from plain.
        final String name = "A\u0000\u00dcn\u20ac";
        final SymbolSpec plain = SymbolSpec.plain(7);
        final MatchingEngine engine = new MatchingEngine(EngineConfig.noRiskChecks(
            new SymbolSpec(7, name, plain.priceScale(), plain.tickSize(), plain.lotSize(), plain.priceBandBasisPoints(),
                plain.referencePrice())));
        final byte[] snapshot = engine.snapshot();
        final java.io.ByteArrayOutputStream expected = new java.io.ByteArrayOutputStream();
        new java.io.DataOutputStream(expected).writeUTF(name);
        final byte[] utf = expected.toByteArray();
        assertTrue(indexOf(snapshot, utf) > 0, "the name as DataOutputStream.writeUTF writes it");
        assertArrayEquals(snapshot, MatchingEngine.restore(snapshot).snapshot());
        assertArrayEquals(snapshot, MatchingEngine.sealSnapshot(engine.snapshotUnsealed()), "sealing later gives the same snapshot");
    }

    private static int indexOf(final byte[] haystack, final byte[] needle) {
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            if (Arrays.equals(haystack, i, i + needle.length, needle, 0, needle.length)) {
                return i;
            }
        }
        return -1;
    }

    @Test
    void restoredEngineBehavesLikeTheOriginal() {
        final EngineFixture original = busyEngine();
        final EngineFixture copy = busyEngine();
        final MatchingEngine restored = MatchingEngine.restore(copy.engine.snapshot());
        final Result copyResult = new Result();
        // Time priority, halt, kill switch, ids and DAY orders must all survive.
        final String[] expected = new String[6];
        original.buy(BOB, 10, 102, 20);
        expected[0] = original.result.toString();
        original.buy(CAROL, 11, 95, 1);
        expected[1] = original.result.toString();
        original.apply(original.command.newOrder(ALICE, OTHER_SYM, 12, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, 60, 1));
        expected[2] = original.result.toString();
        original.symbolCommand(CommandType.END_OF_DAY, 0);
        expected[3] = original.result.toString();
        original.cancel(BOB, 5);
        expected[4] = original.result.toString();
        original.apply(original.command.massCancel(ALICE, 0));
        expected[5] = original.result.toString();

        final EngineFixture replay = EngineFixture.standard();
        replay.command.limit(BOB, SYM, 10, Side.BUY, 102, 20);
        restored.apply(replay.command, copyResult);
        assertEquals(expected[0], copyResult.toString());
        restored.apply(replay.command.limit(CAROL, SYM, 11, Side.BUY, 95, 1), copyResult);
        assertEquals(expected[1], copyResult.toString());
        restored.apply(replay.command.newOrder(ALICE, OTHER_SYM, 12, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, 60, 1), copyResult);
        assertEquals(expected[2], copyResult.toString());
        restored.apply(replay.command.symbolCommand(CommandType.END_OF_DAY, 0), copyResult);
        assertEquals(expected[3], copyResult.toString());
        restored.apply(replay.command.cancel(BOB, 5), copyResult);
        assertEquals(expected[4], copyResult.toString());
        restored.apply(replay.command.massCancel(ALICE, 0), copyResult);
        assertEquals(expected[5], copyResult.toString());
        assertEquals(original.engine.stateHash(), restored.stateHash());
    }

    @Test
    void differentStatesHaveDifferentHashes() {
        final EngineFixture a = busyEngine();
        final EngineFixture b = busyEngine();
        assertEquals(a.engine.stateHash(), b.engine.stateHash());
        b.reduce(ALICE, 4, 1);
        assertNotEquals(a.engine.stateHash(), b.engine.stateHash());
    }

    @Test
    void truncatedSnapshotIsAClearErrorAtEveryLength() {
        final byte[] bytes = busyEngine().engine.snapshot();
        for (int length = 0; length < bytes.length; length++) {
            final byte[] truncated = Arrays.copyOf(bytes, length);
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> MatchingEngine.restore(truncated));
            assertTrue(e.getMessage().contains("snapshot"), e.getMessage());
        }
    }

    @Test
    void foreignOrGarbledBytesAreRejectedWithoutHarm() {
        assertThrows(IllegalArgumentException.class, () -> MatchingEngine.restore("not a snapshot at all".getBytes()));
        final byte[] bytes = busyEngine().engine.snapshot();
        final SplittableRandom random = new SplittableRandom(7);
        int rejected = 0;
        for (int trial = 0; trial < 2_000; trial++) {
            final byte[] garbled = bytes.clone();
            for (int flips = 1 + random.nextInt(4); flips > 0; flips--) {
                garbled[random.nextInt(garbled.length)] ^= (byte) (1 + random.nextInt(255));
            }
            try {
                MatchingEngine.restore(garbled).stateHash();
            } catch (final IllegalArgumentException e) {
                rejected++;
            }
        }
        assertEquals(2_000, rejected, "the checksum catches every garbled snapshot");
    }
}
