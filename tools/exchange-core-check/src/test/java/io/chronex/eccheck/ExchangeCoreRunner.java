package io.chronex.eccheck;

import exchange.core2.core.ExchangeApi;
import exchange.core2.core.ExchangeCore;
import exchange.core2.core.common.CoreSymbolSpecification;
import exchange.core2.core.common.CoreWaitStrategy;
import exchange.core2.core.common.OrderAction;
import exchange.core2.core.common.OrderType;
import exchange.core2.core.common.SymbolType;
import exchange.core2.core.common.api.ApiAddUser;
import exchange.core2.core.common.api.ApiAdjustUserBalance;
import exchange.core2.core.common.api.ApiCancelOrder;
import exchange.core2.core.common.api.ApiCommand;
import exchange.core2.core.common.api.ApiMoveOrder;
import exchange.core2.core.common.api.ApiNop;
import exchange.core2.core.common.api.ApiPlaceOrder;
import exchange.core2.core.common.api.ApiReduceOrder;
import exchange.core2.core.common.api.binary.BatchAddSymbolsCommand;
import exchange.core2.core.common.api.reports.SingleUserReportQuery;
import exchange.core2.core.common.api.reports.SingleUserReportResult;
import exchange.core2.core.common.api.reports.TotalCurrencyBalanceReportQuery;
import exchange.core2.core.common.api.reports.TotalCurrencyBalanceReportResult;
import exchange.core2.core.common.cmd.CommandResultCode;
import exchange.core2.core.common.cmd.OrderCommand;
import exchange.core2.core.common.config.ExchangeConfiguration;
import exchange.core2.core.common.config.OrdersProcessingConfiguration;
import exchange.core2.core.common.config.PerformanceConfiguration;
import io.chronex.api.Command;
import io.chronex.api.Side;
import io.chronex.api.SymbolSpec;
import io.chronex.api.TimeInForce;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;

/**
 * exchange-core 0.5.3 running in this JVM in its EXCHANGE (spot) mode, driven by our {@link Command}s.
 *
 * <p>exchange-core is not deterministic in its default configuration: its risk engine pre-checks (and
 * pre-holds) orders in groups of up to {@code msgsInGroupLimit} (256) commands ahead of the matching
 * engine, and releases and settlements of a group land after the next group's pre-checks, so whether an
 * order is refused for funds depends on how the commands happened to be grouped. This runner always
 * builds it with {@code msgsInGroupLimit(1)}: every command then goes pre-check, matching, settlement
 * before the next one's pre-check, which is the order our engine applies them in, whether commands are
 * submitted one at a time or pipelined.
 *
 * An answer reaches us after matching but before that command's settlement, which runs just before the next
 * command's pre-check; balances are therefore read only through reports, which are commands themselves.
 *
 * <p>Its threads wait by yielding. Its base configuration blocks instead, which on two cores took about 5 ms
 * to hand one command through its five pipeline threads, against 0.4 ms yielding.
 */
final class ExchangeCoreRunner implements AutoCloseable {
    private static final long TIMEOUT_SECONDS = 60;
    private static final long SYNC_TIMEOUT_SECONDS = 600;

    private final ExchangeCore core;
    private final ExchangeApi api;
    private int reportId;
    /** Answers to order commands (place, move, cancel, reduce) by result code, pipelined ones included. */
    private final Map<CommandResultCode, LongAdder> orderAnswers = new ConcurrentHashMap<>();

    private ExchangeCoreRunner(final PerformanceConfiguration performance) {
        core = ExchangeCore.builder()
            .resultsConsumer(this::count)
            .exchangeConfiguration(ExchangeConfiguration.defaultBuilder()
                .performanceCfg(performance)
                .ordersProcessingCfg(OrdersProcessingConfiguration.DEFAULT)
                .build())
            .build();
        core.startup();
        api = core.getApi();
    }

    private void count(final OrderCommand cmd, final long seq) {
        switch (cmd.command) {
            case PLACE_ORDER, MOVE_ORDER, CANCEL_ORDER, REDUCE_ORDER ->
                orderAnswers.computeIfAbsent(cmd.resultCode, code -> new LongAdder()).increment();
            default -> {
            }
        }
    }

    /** How many order commands exchange-core has answered with each result code (call {@link #sync} first). */
    Map<CommandResultCode, Long> orderAnswers() {
        final Map<CommandResultCode, Long> counts = new TreeMap<>();
        orderAnswers.forEach((code, count) -> counts.put(code, count.sum()));
        return counts;
    }

    /** Starts an empty exchange-core that applies one command at a time (deterministic); close it to stop its threads. */
    static ExchangeCoreRunner start() {
        return new ExchangeCoreRunner(PerformanceConfiguration.baseBuilder().msgsInGroupLimit(1).waitStrategy(CoreWaitStrategy.YIELDING)
            .build());
    }

    /**
     * Starts an empty exchange-core as configured for speed: its own base configuration (groups of 256, its threads
     * blocking or yielding when idle). Not deterministic in general; on ec-1M, where no order is short of funds,
     * grouping changes no answer.
     */
    static ExchangeCoreRunner startForSpeed(final boolean yielding) {
        return new ExchangeCoreRunner(yielding ? PerformanceConfiguration.baseBuilder().waitStrategy(CoreWaitStrategy.YIELDING).build()
            : PerformanceConfiguration.DEFAULT);
    }

    /** Adds our symbol as an exchange pair: baseScaleK, quoteScaleK and the fees are the same numbers. */
    void addSymbol(final SymbolSpec spec) {
        final CoreSymbolSpecification ec = CoreSymbolSpecification.builder()
            .symbolId(spec.id())
            .type(SymbolType.CURRENCY_EXCHANGE_PAIR)
            .baseCurrency(spec.baseAsset())
            .quoteCurrency(spec.quoteAsset())
            .baseScaleK(spec.baseScale())
            .quoteScaleK(spec.quoteScale())
            .takerFee(spec.takerFee())
            .makerFee(spec.makerFee())
            .build();
        expectSuccess(get(api.submitBinaryDataAsync(new BatchAddSymbolsCommand(ec))), "add symbol " + spec.id());
    }

    void addUser(final long uid) {
        expectSuccess(get(api.submitCommandAsync(ApiAddUser.builder().uid(uid).build())), "add user " + uid);
    }

    /** Submits one command and waits for exchange-core's answer: the command with its result code and events. */
    OrderCommand apply(final Command c) {
        return get(api.submitCommandAsyncFullResponse(translate(c)));
    }

    /** Submits without waiting (answers are discarded); {@link #sync} waits until everything submitted is done. */
    void submit(final Command c) {
        api.submitCommand(translate(c));
    }

    /** Waits until every command submitted so far has been processed. */
    void sync() {
        // Behind up to a ring buffer (16K) of pipelined commands, at a few ms each on a loaded machine.
        get(api.submitCommandAsync(ApiNop.builder().build()), SYNC_TIMEOUT_SECONDS);
    }

    /**
     * Our command as exchange-core's: uid = account, orderId = client order id, currency = asset id,
     * transaction id = reference; DEPOSIT and WITHDRAW are balance adjustments of + and - the amount.
     */
    static ApiCommand translate(final Command c) {
        return switch (c.type) {
            case NEW_ORDER -> ApiPlaceOrder.builder()
                .uid(c.account)
                .symbol(c.symbol)
                .orderId(c.clientOrderId)
                .action(c.side == Side.BUY ? OrderAction.BID : OrderAction.ASK)
                .orderType(orderType(c.timeInForce))
                .price(c.price)
                .reservePrice(c.reservePrice)
                .size(c.quantity)
                .build();
            case MOVE -> ApiMoveOrder.builder().uid(c.account).symbol(c.symbol).orderId(c.clientOrderId).newPrice(c.price).build();
            case CANCEL -> ApiCancelOrder.builder().uid(c.account).symbol(c.symbol).orderId(c.clientOrderId).build();
            case REDUCE -> ApiReduceOrder.builder().uid(c.account).symbol(c.symbol).orderId(c.clientOrderId).reduceSize(c.quantity)
                .build();
            case DEPOSIT -> ApiAdjustUserBalance.builder().uid(c.account).currency(c.symbol).amount(c.quantity)
                .transactionId(c.clientOrderId).build();
            case WITHDRAW -> ApiAdjustUserBalance.builder().uid(c.account).currency(c.symbol).amount(-c.quantity)
                .transactionId(c.clientOrderId).build();
            default -> throw new IllegalArgumentException("exchange-core has no " + c.type);
        };
    }

    private static OrderType orderType(final TimeInForce tif) {
        return switch (tif) {
            case GTC -> OrderType.GTC;
            case IOC -> OrderType.IOC;
            case FOK_BUDGET -> OrderType.FOK_BUDGET;
            default -> throw new IllegalArgumentException("no exchange-core order type for " + tif);
        };
    }

    /** A user's balances and open orders. */
    SingleUserReportResult user(final long uid) {
        return get(api.processReport(new SingleUserReportQuery(uid), ++reportId));
    }

    /** Sums over all users: balances, fees, and what open orders hold. */
    TotalCurrencyBalanceReportResult totals() {
        return get(api.processReport(new TotalCurrencyBalanceReportQuery(), ++reportId));
    }

    private static void expectSuccess(final CommandResultCode code, final String what) {
        if (code != CommandResultCode.SUCCESS) {
            throw new IllegalStateException("exchange-core: " + what + ": " + code);
        }
    }

    private static <T> T get(final CompletableFuture<T> future) {
        return get(future, TIMEOUT_SECONDS);
    }

    private static <T> T get(final CompletableFuture<T> future, final long timeoutSeconds) {
        try {
            return future.get(timeoutSeconds, TimeUnit.SECONDS);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for exchange-core", e);
        } catch (final ExecutionException | TimeoutException e) {
            throw new IllegalStateException("exchange-core did not answer", e);
        }
    }

    @Override
    public void close() {
        core.shutdown(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }
}
