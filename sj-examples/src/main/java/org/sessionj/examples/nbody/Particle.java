package org.sessionj.examples.nbody;

/**
 * A body's position and mass: the message of the n-Body pipeline. Immutable, so a forwarded array
 * may share its elements with the owner's (each step makes new particles).
 *
 * @param x position
 * @param y position
 * @param z position
 * @param mass mass
 */
public record Particle(double x, double y, double z, double mass) {
}
