/** The gateway process. Placeholder until its issue is built. */
package io.chronex.gateway;
