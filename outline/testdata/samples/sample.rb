require "json"
require_relative "helper"

module Billing
  class Invoice < Base
    TAX = 0.2
    attr_reader :total

    def initialize(total)
      @total = total
    end

    def self.build
      new(0)
    end

    private

    def secret; end
  end

  def self.version; end
end

class Report
  def render; end
end

def top_level(x)
  x
end

MAX = 3
