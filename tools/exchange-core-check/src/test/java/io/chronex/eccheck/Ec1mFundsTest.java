package io.chronex.eccheck;

import io.chronex.engine.MatchingEngine;
import org.junit.jupiter.api.Test;

/**
 * ec-1M with money, funded as exchange-core's own benchmark funds it ({@link Ec1m}).
 *
 * <p>That the whole stream through our engine alone ends with exchange-core's own totals from reference.txt is
 * engine/core's FundedExchangeCoreTest. Here exchange-core itself runs the
 * first {@value #PREFIX} commands beside ours, one at a time, each answer compared (trades, reduces), then every
 * account: 12 s on an idle 2-core machine, 16 s on a loaded one. The whole stream pipelined into exchange-core
 * ({@link Ec1mFullCheck}, bin/check-exchange-core) takes 14 s idle but 185 s loaded, which the suite should
 * not risk. exchange-core runs with {@code msgsInGroupLimit(1)} ({@link ExchangeCoreRunner}).
 */
class Ec1mFundsTest {
    private static final int PREFIX = 20_000;

    @Test
    void prefixAgreesWithExchangeCoreAccountByAccount() {
        final MatchingEngine engine = Ec1m.fundedEngine();
        try (ExchangeCoreRunner ec = Ec1m.fundedExchangeCore()) {
            Ec1m.replay(ec, engine, PREFIX, false);
            AccountCheck.all(ec, engine, Ec1m.users(), Ec1m.symbols(), Ec1m.CURRENCIES, "ec-1M after " + PREFIX + " commands");
        }
    }
}
