import groovy.json.JsonSlurper
class Service { String name; def run() {} private void hidden() {} }
interface Api { void call() }
def helper(x) { x }
