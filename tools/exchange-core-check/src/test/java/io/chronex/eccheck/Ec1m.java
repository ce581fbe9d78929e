package io.chronex.eccheck;

import exchange.core2.core.common.cmd.CommandResultCode;
import exchange.core2.core.common.cmd.OrderCommand;
import io.chronex.api.Command;
import io.chronex.api.Result;
import io.chronex.api.SymbolSpec;
import io.chronex.engine.MatchingEngine;
import io.chronex.testing.Workloads;
import io.chronex.workload.ExchangeCoreCsv;
import io.chronex.workload.ExchangeCoreFunding;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * ec-1M with money, set up as exchange-core's own benchmark sets it up (workloads/ec-1M/reference.txt: the
 * pair's currencies, scales and fees; users 1..1000, each funded with ExchangeCoreFunding's deposit of both currencies),
 * for our engine and for exchange-core.
 */
final class Ec1m {
    static final int SYMBOL = 40000;
    static final int[] CURRENCIES = {ExchangeCoreFunding.BASE_CURRENCY, ExchangeCoreFunding.QUOTE_CURRENCY};
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
        return ExchangeCoreFunding.config(SYMBOL).symbols().get(0);
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

    /** Our engine with only the FUNDS check (exchange-core has no other), the users funded. */
    static MatchingEngine fundedEngine() {
        final MatchingEngine engine = new MatchingEngine(ExchangeCoreFunding.config(SYMBOL));
        final Result r = new Result();
        ExchangeCoreFunding.deposits(users(), new Command(), c -> {
            engine.apply(c, r);
            if (r.isRejected()) {
                throw new IllegalStateException(c + ": " + r.rejectReason);
            }
        });
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
            // References 1, 2, ... rise per user too, as exchange-core wants.
            ExchangeCoreFunding.deposits(users(), c, ec::submit);
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
