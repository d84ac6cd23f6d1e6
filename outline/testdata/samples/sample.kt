package com.example

import kotlin.math.max
import java.util.List as JList

class Widget(val name: String) : Base() {
    private val secret = 1
    var count = 0
    fun render() {}
    private fun hidden() {}
    companion object {
        const val MAX = 10
    }
}

interface Api {
    fun call()
}

object Registry {
    fun register() {}
}

enum class Color { RED, GREEN }

data class Point(val x: Int, val y: Int)

fun topLevel(x: Int): Int = x
private fun internalHelper() {}
val answer = 42
typealias Name = String
