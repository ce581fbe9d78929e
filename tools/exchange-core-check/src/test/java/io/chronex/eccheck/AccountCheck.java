package io.chronex.eccheck;

import exchange.core2.core.common.Order;
import exchange.core2.core.common.OrderAction;
import exchange.core2.core.common.api.reports.SingleUserReportResult;
import exchange.core2.core.common.api.reports.TotalCurrencyBalanceReportResult;
import io.chronex.api.SymbolSpec;
import io.chronex.engine.MatchingEngine;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Compares the money in exchange-core with ours: per user and asset, exchange-core's balance with our
 * available and what exchange-core's open orders hold with our held; over all users, its balances, fees
 * and orders-balances report with our sums.
 */
final class AccountCheck {
    private AccountCheck() {
    }

    /** Every user's balances and holds, then the totals; where names the point in the stream for a failure. */
    static void all(final ExchangeCoreRunner ec, final MatchingEngine ours, final long[] users, final List<SymbolSpec> symbols,
                    final int[] assets, final String where) {
        for (final long uid : users) {
            user(ec, ours, uid, symbols, assets, where);
        }
        totals(ec, ours, users, assets, where);
    }

    static void user(final ExchangeCoreRunner ec, final MatchingEngine ours, final long uid, final List<SymbolSpec> symbols,
                     final int[] assets, final String where) {
        final SingleUserReportResult report = ec.user(uid);
        for (final int asset : assets) {
            assertEquals(report.getAccounts().get(asset), ours.available(uid, asset),
                where + ": user " + uid + " asset " + asset + ": exchange-core's balance vs our available");
            long held = 0;
            for (final SymbolSpec spec : symbols) {
                final List<Order> orders = report.getOrders().get(spec.id());
                if (orders == null) {
                    continue;
                }
                for (final Order o : orders) {
                    held += heldBy(o, spec, asset);
                }
            }
            assertEquals(held, ours.held(uid, asset),
                where + ": user " + uid + " asset " + asset + ": what exchange-core's open orders hold vs our held");
        }
    }

    /** What an exchange-core order holds of an asset, as its TotalCurrencyBalanceReportQuery counts it. */
    private static long heldBy(final Order o, final SymbolSpec spec, final int asset) {
        final long leaves = o.size - o.filled;
        if (o.action == OrderAction.BID) {
            return asset == spec.quoteAsset() ? leaves * (o.reserveBidPrice * spec.quoteScale() + spec.takerFee()) : 0;
        }
        return asset == spec.baseAsset() ? leaves * spec.baseScale() : 0;
    }

    static void totals(final ExchangeCoreRunner ec, final MatchingEngine ours, final long[] users, final int[] assets,
                       final String where) {
        final TotalCurrencyBalanceReportResult totals = ec.totals();
        for (final int asset : assets) {
            long available = 0;
            long held = 0;
            for (final long uid : users) {
                available += ours.available(uid, asset);
                held += ours.held(uid, asset);
            }
            assertEquals(totals.getAccountBalances().get(asset), available, where + ": asset " + asset + ": sum of balances");
            assertEquals(totals.getFees().get(asset), ours.feesCollected(asset), where + ": asset " + asset + ": fees");
            assertEquals(totals.getOrdersBalances().get(asset), held, where + ": asset " + asset + ": orders balances vs sum of held");
        }
    }
}
