/**
 * Accounts' money, apart from matching as exchange-core keeps its risk engine apart from its order
 * books: assets, every account's available and held balance per asset, the holds of open orders, the
 * settlement of each trade with its fees, and the journalled deposits, withdrawals and adjustments.
 * The matching engine calls in at fixed points (accept, fill, release); the rules are in docs/engine.md.
 */
package io.chronex.engine.risk;
