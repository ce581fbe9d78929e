/** FIX 4.4 market data on the gateway: MarketDataRequest (V) answered with W, X, Y and SecurityStatus (f). */
package io.chronex.gateway.marketdata;
