package com.acme.shapes;

import java.util.List;
import java.util.*;
import static java.lang.Math.max;
import static java.util.Collections.*;

/**
 * A shape with an area.
 */
public interface Shape {
    double PI = 3.14;

    double area();

    default String describe() {
        return "shape";
    }
}

/** A circle. */
@SuppressWarnings("serial")
public abstract class Circle implements Shape, Comparable<Circle> {
    private static final int SIDES = 0;
    protected double radius, diameter;
    String label;

    public Circle(double radius) {
        this.radius = radius;
    }

    /** Scales by the factors. */
    public synchronized Circle scale(double... factors) {
        return this;
    }

    abstract void draw(Canvas canvas, int x);

    private static class Cache<K> {
        K key;
    }

    enum Color {
        RED, GREEN;

        Color() {}
    }

    record Point(int x, int y) {}

    @interface Marker {
        String value() default "";
    }
}
