/** The replay process. Placeholder until its issue is built. */
package io.chronex.replay;
