package io.chronex.eccheck;

import exchange.core2.core.common.cmd.CommandResultCode;
import io.chronex.api.AccountSpec;
import io.chronex.api.AssetSpec;
import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.api.EngineConfig;
import io.chronex.api.Result;
import io.chronex.api.RiskCheck;
import io.chronex.api.SymbolSpec;
import io.chronex.engine.MatchingEngine;
import io.chronex.testing.Workloads;
import io.chronex.workload.ExchangeCoreCsv;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * ec-1M with money, funded as exchange-core's own benchmark funds it (workloads/ec-1M/reference.txt: users
 * 1..1000, each {@value #DEPOSIT} of both currencies; the pair's scales and fees).
 *
 * <p>The whole stream through our engine alone must accept every command and end with exchange-core's own
 * totals from reference.txt: fees, the sum of balances and the orders balances. exchange-core itself takes
 * about 85 s for the whole stream on the 2-core machine (bin/check-exchange-core runs it), too long for the
 * suite: here it runs the first {@value #PREFIX} commands beside ours, then every account is compared.
 * exchange-core runs with {@code msgsInGroupLimit(1)} ({@link ExchangeCoreRunner}), so pipelining the
 * commands into it does not change its answers.
 */
class Ec1mFundsTest {
    static final int SYMBOL = 40000;
    static final int BASE = 3762;
    static final int QUOTE = 3928;
    static final long DEPOSIT = 9_214_157_878_975_800L;
    static final int USERS = 1000;
    private static final int PREFIX = 100_000;

    private static ExchangeCoreCsv commands;
    private static Path workload;

    @BeforeAll
    static void load() throws IOException {
        workload = Workloads.workload("ec-1M");
        commands = ExchangeCoreCsv.load(workload.resolve("commands.csv.gz"), SYMBOL);
    }

    /** The pair as reference.txt's symbol line gives it. */
    static SymbolSpec symbol() {
        return SymbolSpec.plain(SYMBOL).withAssets(BASE, QUOTE, 100, 10, 1160, 847);
    }

    /** Our engine with only the FUNDS check (exchange-core has no other) and the benchmark's users funded. */
    static MatchingEngine fundedEngine() {
        final MatchingEngine engine = new MatchingEngine(new EngineConfig(List.of(symbol()), List.of(), RiskCheck.FUNDS.bit(), true,
            AccountSpec.unlimited(0), List.of(new AssetSpec(BASE, "C" + BASE, 0), new AssetSpec(QUOTE, "C" + QUOTE, 0))));
        final Command c = new Command();
        final Result r = new Result();
        for (int i = 0; i < 2 * USERS; i++) {
            engine.apply(deposit(c, i), r);
            if (r.isRejected()) {
                throw new IllegalStateException(c + ": " + r.rejectReason);
            }
        }
        return engine;
    }

    /** The i-th of the benchmark's 2,000 deposits as our command (references 1, 2, ... also rise per user, as exchange-core wants). */
    static Command deposit(final Command c, final int i) {
        return c.money(CommandType.DEPOSIT, 1 + i / 2, i % 2 == 0 ? BASE : QUOTE, DEPOSIT, i + 1);
    }

    static long[] users() {
        final long[] users = new long[USERS];
        for (int i = 0; i < USERS; i++) {
            users[i] = i + 1;
        }
        return users;
    }

    @Test
    void wholeStreamEndsWithExchangeCoresTotals() throws IOException {
        final MatchingEngine engine = fundedEngine();
        final Command c = new Command();
        final Result r = new Result();
        for (int seq = 0; seq < commands.size(); seq++) {
            engine.apply(commands.commandAt(seq, c), r);
            if (r.isRejected()) {
                fail("seq " + seq + " " + commands.describe(seq) + " rejected: " + r.rejectReason
                    + " (exchange-core accepted every command)");
            }
        }
        final String text = Files.readString(workload.resolve("reference.txt"));
        final Map<Integer, Long> fees = amounts(text, "core.fees");
        final Map<Integer, Long> balances = amounts(text, "core.accountBalancesSum");
        final Map<Integer, Long> orders = amounts(text, "core.ordersBalances");
        for (final int currency : new int[]{BASE, QUOTE}) {
            long available = 0;
            long held = 0;
            for (final long uid : users()) {
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
        final MatchingEngine engine = fundedEngine();
        final Command c = new Command();
        final Result r = new Result();
        try (ExchangeCoreRunner ec = ExchangeCoreRunner.start()) {
            ec.addSymbol(symbol());
            for (final long uid : users()) {
                ec.addUser(uid);
            }
            for (int i = 0; i < 2 * USERS; i++) {
                ec.submit(deposit(c, i));
            }
            final List<CompletableFuture<CommandResultCode>> answers = new ArrayList<>(PREFIX);
            for (int seq = 0; seq < PREFIX; seq++) {
                commands.commandAt(seq, c).symbol = SYMBOL;
                answers.add(ec.submitAsync(c));
                engine.apply(c, r);
                if (r.isRejected()) {
                    fail("seq " + seq + " " + commands.describe(seq) + " rejected by us: " + r.rejectReason);
                }
            }
            for (int seq = 0; seq < PREFIX; seq++) {
                assertEquals(CommandResultCode.SUCCESS, answers.get(seq).join(), "exchange-core's answer to seq " + seq);
            }
            AccountCheck.all(ec, engine, users(), List.of(symbol()), new int[]{BASE, QUOTE}, "ec-1M after " + PREFIX + " commands");
        }
    }
}
