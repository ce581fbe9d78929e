package io.chronex.engine.reference;

import io.chronex.engine.BookText;
import io.chronex.engine.MatchingEngine;
import io.chronex.api.Cancel;
import io.chronex.api.CancelReason;
import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.api.EngineConfig;
import io.chronex.api.LevelChange;
import io.chronex.api.RejectReason;
import io.chronex.api.Result;
import io.chronex.api.SelfTradePrevention;
import io.chronex.api.Side;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The real engine and the deliberately simple {@link ReferenceEngine} are fed the same random
 * streams and must give identical results after every command and identical books throughout.
 * Coverage is asserted too, so the streams cannot quietly stop exercising a rule.
 */
class DifferentialTest {
    private static final int[] SYMBOLS = {RandomCommandStream.PLAIN, RandomCommandStream.TICKED, RandomCommandStream.COARSE};

    private static final Set<CommandType> COMMAND_TYPES = EnumSet.noneOf(CommandType.class);
    private static final Set<RejectReason> REJECT_REASONS = EnumSet.noneOf(RejectReason.class);
    private static final Set<CancelReason> CANCEL_REASONS = EnumSet.noneOf(CancelReason.class);
    private static final Set<SelfTradePrevention> SELF_TRADE_MODES_FIRED = EnumSet.noneOf(SelfTradePrevention.class);
    private static long commandsCompared;
    private static long fills;

    private static void run(final long seed, final EngineConfig config, final int commands) {
        final MatchingEngine engine = new MatchingEngine(config);
        final ReferenceEngine reference = new ReferenceEngine(config);
        final RandomCommandStream stream = new RandomCommandStream(seed, reference);
        final Command command = new Command();
        final Command copy = new Command();
        final Result actual = new Result();
        final Result expected = new Result();
        final L2Book rebuilt = new L2Book();
        for (int i = 0; i < commands; i++) {
            stream.next(command);
            copy.copyFrom(command);
            engine.apply(command, actual);
            reference.apply(copy, expected);
            final String actualText = actual.toString();
            final String expectedText = expected.toString();
            if (!actualText.equals(expectedText)) {
                fail("seed " + seed + ", command #" + i + ": " + copy + "\nreference:\n" + expectedText + "\nengine:\n" + actualText);
            }
            record(actual);
            rebuilt.apply(actual);
            if (i % 1_000 == 0 || i == commands - 1) {
                for (final int symbol : SYMBOLS) {
                    for (final Side side : Side.values()) {
                        assertEquals(reference.depth(symbol, side), BookText.depth(engine, symbol, side),
                            "seed " + seed + ", after command #" + i + ", symbol " + symbol + " " + side);
                        assertEquals(BookText.depth(engine, symbol, side), rebuilt.depth(symbol, side),
                            "seed " + seed + ", after command #" + i + ": depth rebuilt from level changes alone, symbol " + symbol
                                + " " + side);
                    }
                }
            }
        }
        commandsCompared += commands;
    }

    /** A book kept only from results' level changes, as a market-data reader would. */
    private static final class L2Book {
        private final Map<String, TreeMap<Long, long[]>> sides = new HashMap<>();

        void apply(final Result r) {
            for (int i = 0; i < r.levelChangeCount(); i++) {
                final LevelChange change = r.levelChange(i);
                final TreeMap<Long, long[]> levels = sides.computeIfAbsent(change.symbol + "/" + change.side,
                    key -> change.side == Side.BUY ? new TreeMap<>(Comparator.reverseOrder()) : new TreeMap<>());
                if (change.quantity == 0) {
                    levels.remove(change.price);
                } else {
                    levels.put(change.price, new long[]{change.quantity, change.orderCount});
                }
            }
        }

        String depth(final int symbol, final Side side) {
            final StringBuilder sb = new StringBuilder();
            sides.getOrDefault(symbol + "/" + side, new TreeMap<>()).forEach((price, level) -> {
                if (!sb.isEmpty()) {
                    sb.append(' ');
                }
                sb.append(price).append(':').append(level[0]).append(':').append(level[1]);
            });
            return sb.toString();
        }
    }

    private static void record(final Result r) {
        COMMAND_TYPES.add(r.commandType == null ? CommandType.NEW_ORDER : r.commandType);
        REJECT_REASONS.add(r.rejectReason);
        fills += r.fillCount();
        boolean restingSelfTradeCancel = false;
        boolean incomingSelfTradeCancel = false;
        for (int i = 0; i < r.cancelCount(); i++) {
            final Cancel cancel = r.cancel(i);
            CANCEL_REASONS.add(cancel.reason);
            if (cancel.reason == CancelReason.SELF_TRADE_PREVENTION) {
                if (cancel.orderId == r.orderId) {
                    incomingSelfTradeCancel = true;
                } else {
                    restingSelfTradeCancel = true;
                }
            }
        }
        if (restingSelfTradeCancel && incomingSelfTradeCancel) {
            SELF_TRADE_MODES_FIRED.add(SelfTradePrevention.CANCEL_BOTH);
        } else if (restingSelfTradeCancel) {
            SELF_TRADE_MODES_FIRED.add(SelfTradePrevention.CANCEL_RESTING);
        } else if (incomingSelfTradeCancel) {
            SELF_TRADE_MODES_FIRED.add(SelfTradePrevention.CANCEL_INCOMING);
        }
        for (int i = 0; i < r.fillCount(); i++) {
            if (r.fill(i).makerAccount == r.fill(i).takerAccount) {
                SELF_TRADE_MODES_FIRED.add(SelfTradePrevention.OFF);
            }
        }
    }

    @Test
    void riskOnAccountsCreatedOnFirstUse() {
        run(1, RandomCommandStream.riskOn(true), 250_000);
        run(2, RandomCommandStream.riskOn(true), 250_000);
    }

    @Test
    void riskOnAccountsMustBeConfigured() {
        run(3, RandomCommandStream.riskOn(false), 250_000);
        run(4, RandomCommandStream.riskOn(false), 150_000);
    }

    @Test
    void riskChecksOff() {
        run(5, RandomCommandStream.config(0, true), 150_000);
    }

    @AfterAll
    static void streamsCoveredEveryRule() {
        assertEquals(1_050_000, commandsCompared, "every stream ran to the end");
        assertEquals(EnumSet.allOf(CommandType.class), COMMAND_TYPES, "command types seen");
        assertEquals(EnumSet.complementOf(EnumSet.of(RejectReason.MALFORMED_COMMAND)), REJECT_REASONS,
            "reject reasons seen (NONE = accepted; MALFORMED_COMMAND comes from the engine process, not the core)");
        assertEquals(EnumSet.allOf(CancelReason.class), CANCEL_REASONS, "cancel reasons seen");
        assertEquals(EnumSet.allOf(SelfTradePrevention.class), SELF_TRADE_MODES_FIRED, "self-trade prevention modes that acted");
        assertTrue(fills > 50_000, "only " + fills + " fills");
    }
}
