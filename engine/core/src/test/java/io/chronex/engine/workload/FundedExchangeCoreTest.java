package io.chronex.engine.workload;

import io.chronex.api.Command;
import io.chronex.api.Result;
import io.chronex.engine.MatchingEngine;
import io.chronex.testing.Workloads;
import io.chronex.workload.ExchangeCoreCsv;
import io.chronex.workload.ExchangeCoreFunding;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.chronex.workload.ExchangeCoreFunding.BASE_CURRENCY;
import static io.chronex.workload.ExchangeCoreFunding.QUOTE_CURRENCY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * ec-1M with its users funded as exchange-core's benchmark funds them and the FUNDS check on: every
 * command is accepted as exchange-core accepted it, and the totals exchange-core reported at the end
 * (reference.txt: fees, the sum of account balances, what open orders hold, per currency) are ours:
 * its balance is our available, its orders' balance our held. Account by account against exchange-core
 * itself: tools/exchange-core-check.
 */
class FundedExchangeCoreTest {
    @Test
    void fundedReplayEndsWithExchangeCoresTotals() throws IOException {
        final Path workload = Workloads.workload("ec-1M");
        final Map<String, String> reference = Workloads.reference(workload);
        assertEquals("1000", reference.get("users"), "the users reference.txt funds");
        final ExchangeCoreCsv commands = ExchangeCoreCsv.load(workload.resolve("commands.csv.gz"), ExchangeCoreParityTest.SYMBOL);
        final MatchingEngine engine = new MatchingEngine(ExchangeCoreFunding.config(ExchangeCoreParityTest.SYMBOL));
        final Command command = new Command();
        final Result result = new Result();
        ExchangeCoreFunding.deposits(commands.accounts(), command, c -> {
            engine.apply(c, result);
            if (result.isRejected()) {
                fail(c + " rejected: " + result.rejectReason);
            }
        });
        long trades = 0;
        for (int seq = 0; seq < commands.size(); seq++) {
            engine.apply(commands.commandAt(seq, command), result);
            if (result.isRejected()) {
                fail("seq " + seq + " " + commands.describe(seq) + " rejected: " + result.rejectReason + " (needed "
                    + result.fundsNeeded + ", available " + result.balanceAvailable + "); exchange-core accepted every command");
            }
            trades += result.fillCount();
        }
        assertEquals(Long.parseLong(reference.get("fill.trades")) + Long.parseLong(reference.get("benchmark.trades")), trades);

        final String text = Files.readString(workload.resolve("reference.txt"));
        final Map<Integer, Long> fees = perCurrency(text, "core.fees");
        final Map<Integer, Long> balances = perCurrency(text, "core.accountBalancesSum");
        final Map<Integer, Long> held = perCurrency(text, "core.ordersBalances");
        for (final int currency : new int[] {BASE_CURRENCY, QUOTE_CURRENCY}) {
            long available = 0;
            long heldByOrders = 0;
            for (final long account : engine.accountIds()) {
                available += engine.available(account, currency);
                heldByOrders += engine.held(account, currency);
            }
            assertEquals(fees.getOrDefault(currency, 0L), engine.feesCollected(currency), "fees in " + currency);
            assertEquals(balances.getOrDefault(currency, 0L), available, "sum of balances (our available) in " + currency);
            assertEquals(held.getOrDefault(currency, 0L), heldByOrders, "held by open orders in " + currency);
            assertEquals(engine.netDeposits(currency), available + heldByOrders + engine.feesCollected(currency),
                "conservation in " + currency);
        }
    }

    /** The value of key in reference.txt, "{3928=709986285, 3762=1}" as exchange-core's IntLongHashMap prints itself. */
    private static Map<Integer, Long> perCurrency(final String referenceText, final String key) {
        final Matcher matcher = Pattern.compile(Pattern.quote(key) + "=\\{([^}]*)}").matcher(referenceText);
        if (!matcher.find()) {
            throw new AssertionError("reference.txt has no " + key);
        }
        final Map<Integer, Long> values = new HashMap<>();
        for (final String pair : matcher.group(1).split(",")) {
            if (!pair.isBlank()) {
                final String[] kv = pair.trim().split("=");
                values.put(Integer.parseInt(kv[0]), Long.parseLong(kv[1]));
            }
        }
        return values;
    }
}
