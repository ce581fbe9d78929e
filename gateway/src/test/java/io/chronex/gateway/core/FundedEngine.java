package io.chronex.gateway.core;

import io.chronex.api.AccountSpec;
import io.chronex.api.AssetSpec;
import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.api.EngineConfig;
import io.chronex.api.RejectReason;
import io.chronex.api.Result;
import io.chronex.engine.MatchingEngine;
import io.chronex.queues.EngineConfigFile;
import io.chronex.testing.ProjectRoot;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Test fixture: an engine core on the shipped configuration whose every configured account has plenty of every asset (as
 * config/demo-funding.admin gives them), so that orders pass the FUNDS check; the deposits are not market data.
 */
public final class FundedEngine {
    private FundedEngine() {
    }

    public static MatchingEngine create() throws Exception {
        final EngineConfig config = EngineConfigFile.load(ProjectRoot.resolve("config/engine.yaml"));
        final MatchingEngine engine = new MatchingEngine(config);
        final Command c = new Command();
        final Result r = new Result();
        long reference = 1;
        for (final AccountSpec account : config.accounts()) {
            for (final AssetSpec asset : config.assets()) {
                engine.apply(c.money(CommandType.DEPOSIT, account.id(), asset.id(), 100_000_000_000L, reference++), r);
                assertEquals(RejectReason.NONE, r.rejectReason, "deposit " + reference);
            }
        }
        return engine;
    }
}
