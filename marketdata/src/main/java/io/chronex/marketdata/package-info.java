/**
 * The binary market-data feed: the publisher (bin/marketdata) that turns the events queue into SBE messages on Aeron,
 * and the feed client library (bin/md-client) that rebuilds every symbol's book from them (docs/marketdata.md).
 */
package io.chronex.marketdata;
