package demo

import kotlin.math.PI

data class Point(val x: Int, val y: Int = 0)

sealed interface Shape { fun area(): Double }

class Circle(private val r: Double) : Shape {
    override fun area(): Double = PI * r * r
    companion object { const val UNIT = 1.0 }
}

fun <T : Comparable<T>> maxOf(a: T, b: T): T = if (a > b) a else b

fun main(args: Array<String>) {
    val xs = listOf(1, 2, 3).map { it * 2 }.filter { x -> x > 2 }
    var total = 0
    for (x in xs) { total += x }
    when (total) {
        in 0..5 -> println("small")
        else -> println("big: $total ${xs.size}")
    }
    val c = Circle(2.0)
    println(c.area() ?: 0.0)
    args.forEach(::println)
}

class Repo @Inject constructor(val db: Db)

fun check(a: Any): Boolean = a !is String

val maybe: String? = null
