package com.acme.model;

/** Something with an area. */
public interface Shape {
    double area();
}
