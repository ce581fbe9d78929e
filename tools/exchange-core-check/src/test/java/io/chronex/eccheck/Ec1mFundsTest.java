package io.chronex.eccheck;

import io.chronex.api.Command;
import io.chronex.api.Result;
import io.chronex.engine.MatchingEngine;
import io.chronex.workload.ExchangeCoreCsv;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * ec-1M with money, funded as exchange-core's own benchmark funds it ({@link Ec1m}).
 *
 * <p>The whole stream through our engine alone must accept every command and end with exchange-core's own
 * totals from reference.txt: fees, the sum of balances and the orders balances. exchange-core itself runs the
 * first {@value #PREFIX} commands beside ours, one at a time, each answer compared (trades, reduces), then every
 * account: 12 s on an idle 2-core machine, 16 s on a loaded one. The whole stream pipelined into exchange-core
 * ({@link Ec1mFullCheck}, bin/check-exchange-core) takes 14 s idle but 185 s loaded, which the suite should
 * not risk. exchange-core runs with {@code msgsInGroupLimit(1)} ({@link ExchangeCoreRunner}).
 */
class Ec1mFundsTest {
    private static final int PREFIX = 20_000;

    @Test
    void wholeStreamEndsWithExchangeCoresTotals() throws IOException {
        final ExchangeCoreCsv commands = Ec1m.commands();
        final MatchingEngine engine = Ec1m.fundedEngine();
        final Command c = new Command();
        final Result r = new Result();
        for (int seq = 0; seq < commands.size(); seq++) {
            engine.apply(commands.commandAt(seq, c), r);
            if (r.isRejected()) {
                fail("seq " + seq + " " + commands.describe(seq) + " rejected: " + r.rejectReason
                    + " (exchange-core accepted every command)");
            }
        }
        final String text = Files.readString(Ec1m.workload().resolve("reference.txt"));
        final Map<Integer, Long> fees = amounts(text, "core.fees");
        final Map<Integer, Long> balances = amounts(text, "core.accountBalancesSum");
        final Map<Integer, Long> orders = amounts(text, "core.ordersBalances");
        for (final int currency : Ec1m.CURRENCIES) {
            long available = 0;
            long held = 0;
            for (final long uid : Ec1m.users()) {
                available += engine.available(uid, currency);
                held += engine.held(uid, currency);
            }
            assertEquals(fees.getOrDefault(currency, 0L), engine.feesCollected(currency), "core.fees of " + currency);
            assertEquals(balances.get(currency), available, "core.accountBalancesSum of " + currency + " vs the sum of our available");
            assertEquals(orders.get(currency), held, "core.ordersBalances of " + currency + " vs the sum of our held");
        }
    }

    /** reference.txt's "key={currency=amount, ...}" as a map. */
    private static Map<Integer, Long> amounts(final String text, final String key) {
        final Matcher line = Pattern.compile("(?m)\\b" + Pattern.quote(key) + "=\\{([^}]*)}").matcher(text);
        if (!line.find()) {
            throw new IllegalStateException("reference.txt has no " + key);
        }
        final Map<Integer, Long> amounts = new TreeMap<>();
        final Matcher pair = Pattern.compile("(\\d+)=(-?\\d+)").matcher(line.group(1));
        while (pair.find()) {
            amounts.put(Integer.parseInt(pair.group(1)), Long.parseLong(pair.group(2)));
        }
        return amounts;
    }

    @Test
    void prefixAgreesWithExchangeCoreAccountByAccount() {
        final MatchingEngine engine = Ec1m.fundedEngine();
        try (ExchangeCoreRunner ec = Ec1m.fundedExchangeCore()) {
            Ec1m.replay(ec, engine, PREFIX, false);
            AccountCheck.all(ec, engine, Ec1m.users(), Ec1m.symbols(), Ec1m.CURRENCIES, "ec-1M after " + PREFIX + " commands");
        }
    }
}
