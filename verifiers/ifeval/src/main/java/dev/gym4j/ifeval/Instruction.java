package dev.gym4j.ifeval;

/** One instruction, built from its kwargs: does a response follow it? */
@FunctionalInterface
public interface Instruction {
  boolean check(String response);
}
