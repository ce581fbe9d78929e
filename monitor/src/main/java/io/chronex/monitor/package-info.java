/** The monitor process. Placeholder until its issue is built. */
package io.chronex.monitor;
