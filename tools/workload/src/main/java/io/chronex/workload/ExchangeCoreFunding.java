package io.chronex.workload;

import io.chronex.api.AssetSpec;
import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.api.EngineConfig;
import io.chronex.api.RiskCheck;
import io.chronex.api.SymbolSpec;

import java.util.List;
import java.util.function.Consumer;

/**
 * ec-1M's money as exchange-core's benchmark set it up (workloads/ec-1M/reference.txt): the pair's
 * two currencies, its scales and fees, and every user funded with the same large amount of both, so
 * that our engine can replay the stream with balances checked and be compared with exchange-core's totals.
 */
public final class ExchangeCoreFunding {
    /** exchange-core's currency codes, used as our asset ids. */
    public static final int BASE_CURRENCY = 3762;
    public static final int QUOTE_CURRENCY = 3928;
    public static final long BASE_SCALE = 100;
    public static final long QUOTE_SCALE = 10;
    public static final long TAKER_FEE = 1160;
    public static final long MAKER_FEE = 847;
    /** What the benchmark deposits per user and currency: Long.MAX_VALUE / (accounts per currency + 1). */
    public static final long DEPOSIT = 9_214_157_878_975_800L;

    private ExchangeCoreFunding() {
    }

    /** The stream's symbol paid for in the two currencies, the FUNDS check alone on, accounts created by their deposits. */
    public static EngineConfig config(final int symbol) {
        return new EngineConfig(List.of(SymbolSpec.plain(symbol).withAssets(BASE_CURRENCY, QUOTE_CURRENCY, BASE_SCALE, QUOTE_SCALE,
            TAKER_FEE, MAKER_FEE)), List.of(), RiskCheck.FUNDS.bit(), true, null,
            List.of(new AssetSpec(BASE_CURRENCY, "C" + BASE_CURRENCY, 0), new AssetSpec(QUOTE_CURRENCY, "C" + QUOTE_CURRENCY, 0)));
    }

    /** The same without the FUNDS check: the benchmark's "checks off" arm. */
    public static EngineConfig unchecked(final int symbol) {
        final EngineConfig funded = config(symbol);
        return new EngineConfig(funded.symbols(), List.of(), 0, true, null, funded.assets());
    }

    /** Hands each deposit the benchmark makes (both currencies for every account) to sink, in account order; reuses command. */
    public static void deposits(final long[] accounts, final Command command, final Consumer<Command> sink) {
        long reference = 1;
        for (final long account : accounts) {
            sink.accept(command.money(CommandType.DEPOSIT, account, BASE_CURRENCY, DEPOSIT, reference++));
            sink.accept(command.money(CommandType.DEPOSIT, account, QUOTE_CURRENCY, DEPOSIT, reference++));
        }
    }
}
