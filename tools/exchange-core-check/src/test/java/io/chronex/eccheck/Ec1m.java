package io.chronex.eccheck;

import exchange.core2.core.common.cmd.CommandResultCode;
import exchange.core2.core.common.cmd.OrderCommand;
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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * ec-1M with money, set up as exchange-core's own benchmark sets it up (workloads/ec-1M/reference.txt: the
 * pair's currencies, scales and fees; users 1..1000, each funded with {@value #DEPOSIT} of both currencies),
 * for our engine and for exchange-core.
 */
final class Ec1m {
    static final int SYMBOL = 40000;
    static final int BASE = 3762;
    static final int QUOTE = 3928;
    static final int[] CURRENCIES = {BASE, QUOTE};
    static final long DEPOSIT = 9_214_157_878_975_800L;
    static final int USERS = 1000;

    private static ExchangeCoreCsv commands;

    private Ec1m() {
    }

    static Path workload() {
        return Workloads.workload("ec-1M");
    }

    /** The stream, read once. */
    static synchronized ExchangeCoreCsv commands() {
        if (commands == null) {
            try {
                commands = ExchangeCoreCsv.load(workload().resolve("commands.csv.gz"), SYMBOL);
            } catch (final IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return commands;
    }

    static SymbolSpec symbol() {
        return SymbolSpec.plain(SYMBOL).withAssets(BASE, QUOTE, 100, 10, 1160, 847);
    }

    static List<SymbolSpec> symbols() {
        return List.of(symbol());
    }

    static long[] users() {
        final long[] users = new long[USERS];
        for (int i = 0; i < USERS; i++) {
            users[i] = i + 1;
        }
        return users;
    }

    /** The i-th of the 2,000 deposits (references 1, 2, ... also rise per user, as exchange-core wants). */
    private static Command deposit(final Command c, final int i) {
        return c.money(CommandType.DEPOSIT, 1 + i / 2, i % 2 == 0 ? BASE : QUOTE, DEPOSIT, i + 1);
    }

    /** Our engine with only the FUNDS check (exchange-core has no other), the users funded. */
    static MatchingEngine fundedEngine() {
        final MatchingEngine engine = new MatchingEngine(new EngineConfig(symbols(), List.of(), RiskCheck.FUNDS.bit(), true,
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

    /** exchange-core with the pair and the users funded; the caller closes it. */
    static ExchangeCoreRunner fundedExchangeCore() {
        return funded(ExchangeCoreRunner.start());
    }

    /** This exchange-core with the pair added and the users funded; closed if that fails. */
    static ExchangeCoreRunner funded(final ExchangeCoreRunner ec) {
        try {
            ec.addSymbol(symbol());
            final Command c = new Command();
            for (final long uid : users()) {
                ec.addUser(uid);
            }
            for (int i = 0; i < 2 * USERS; i++) {
                ec.submit(deposit(c, i));
            }
            return ec;
        } catch (final RuntimeException e) {
            ec.close();
            throw e;
        }
    }

    /**
     * The first n commands into exchange-core and our engine; both must accept every one. One at a time, each
     * answer (events included) is compared with ours; pipelined (with msgsInGroupLimit(1) that does not change
     * exchange-core's answers) only the count of its successes is. On two cores, pipelined is some 40 times
     * faster while the machine is idle (0.014 against 0.55 ms a command) and the slower once other processes
     * load it (about 1.5 against 0.8 ms): its threads spin. Returns when exchange-core has processed them all.
     */
    static void replay(final ExchangeCoreRunner ec, final MatchingEngine engine, final int n, final boolean pipelined) {
        final ExchangeCoreCsv stream = commands();
        final Command c = new Command();
        final Result r = new Result();
        for (int seq = 0; seq < n; seq++) {
            stream.commandAt(seq, c).symbol = SYMBOL;
            List<String> theirs = null;
            if (pipelined) {
                ec.submit(c);
            } else {
                final OrderCommand answer = ec.apply(c);
                theirs = answer.resultCode == CommandResultCode.SUCCESS ? Answers.theirs(answer) : List.of(answer.resultCode.name());
            }
            engine.apply(c, r);
            if (r.isRejected()) {
                fail("seq " + seq + " " + stream.describe(seq) + " rejected by us: " + r.rejectReason);
            }
            if (theirs != null && !theirs.equals(Answers.ours(r))) {
                fail("seq " + seq + " " + stream.describe(seq) + "\n  exchange-core: " + theirs + "\n  ours:          " + Answers.ours(r));
            }
        }
        ec.sync();
        assertEquals(Map.of(CommandResultCode.SUCCESS, (long) n), ec.orderAnswers(), "exchange-core's answers to the order commands");
    }
}
